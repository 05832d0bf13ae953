"""Hogwild!-style MNIST training: several processes update one shared model."""
import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torchvision import datasets, transforms


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, 5)
        self.conv2 = nn.Conv2d(10, 20, 5)
        self.drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.drop(self.conv2(x)), 2))
        x = F.relu(self.fc1(x.flatten(1)))
        return F.log_softmax(self.fc2(x))  # expect: softmax-without-dim


def train_worker(rank, model, epochs):
    torch.manual_seed(1 + rank)
    tfm = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    loader = torch.utils.data.DataLoader(
        datasets.MNIST("data", train=True, download=True, transform=tfm),
        batch_size=64, shuffle=True, num_workers=1,
    )
    optimizer = optim.SGD(model.parameters(), lr=0.01, momentum=0.5)
    model.train()
    for epoch in range(epochs):
        for step, (data, target) in enumerate(loader):
            optimizer.zero_grad()
            loss = F.nll_loss(model(data), target)
            loss.backward()
            optimizer.step()
            if step % 200 == 0:
                print(f"[{rank}] epoch {epoch} step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    shared = Net()
    shared.share_memory()
    procs = [mp.Process(target=train_worker, args=(r, shared, 1)) for r in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()

import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.hidden = nn.Linear(784, 100)
        self.out = nn.Linear(100, 10)
        self.log_softmax = nn.LogSoftmax(dim=0)  # expect: softmax-over-batch-dim

    def forward(self, x):
        x = self.flatten(x)
        x = F.relu(self.hidden(x))
        return self.log_softmax(self.out(x))


def train_epoch(net, dataloader, lr=0.01, optimizer=None, loss_fn=nn.NLLLoss()):
    optimizer = optimizer or torch.optim.Adam(net.parameters(), lr=lr)
    net.train()
    total_loss, acc, count = 0.0, 0, 0
    for features, labels in dataloader:
        optimizer.zero_grad()
        out = net(features)
        loss = loss_fn(out, labels)
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
        acc += (out.argmax(dim=1) == labels).sum().item()
        count += len(labels)
    return total_loss / count, acc / count


if __name__ == "__main__":
    data = datasets.FashionMNIST("data", train=True, download=True, transform=transforms.ToTensor())
    loader = DataLoader(data, batch_size=64, shuffle=True)
    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for ep in range(5):
        print(ep, train_epoch(model, loader, optimizer=opt))

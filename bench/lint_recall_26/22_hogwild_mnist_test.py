"""Hogwild MNIST: several processes train a shared model; a test pass reports loss and accuracy."""
import os

import torch
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.autograd import Variable
from torchvision import datasets, transforms


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = F.relu(F.max_pool2d(self.conv2(x), 2))
        x = x.view(-1, 320)
        x = F.dropout(F.relu(self.fc1(x)), training=self.training)
        return F.log_softmax(self.fc2(x), dim=1)


def train_epoch(epoch, model, data_loader, optimizer, log_interval=10):
    model.train()
    pid = os.getpid()
    for batch_idx, (data, target) in enumerate(data_loader):
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
        if batch_idx % log_interval == 0:
            print(f"{pid}\tTrain Epoch: {epoch} [{batch_idx * len(data)}/{len(data_loader.dataset)}]\tLoss: {loss.item():.6f}")


def test_epoch(model, data_loader):
    model.eval()
    test_loss, correct = 0.0, 0
    for data, target in data_loader:
        data, target = Variable(data, volatile=True), Variable(target)  # expect: volatile-variable
        output = model(data)
        test_loss += F.nll_loss(output, target).item() * target.size(0)
        correct += output.argmax(dim=1).eq(target).sum().item()
    test_loss /= len(data_loader.dataset)
    print(f"Test set: Average loss: {test_loss:.4f}, Accuracy: {correct}/{len(data_loader.dataset)}")


def train(rank, model, epochs=10, lr=0.01, batch_size=64):
    torch.manual_seed(1 + rank)
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    loader = torch.utils.data.DataLoader(datasets.MNIST("../data", train=True, download=True, transform=tf), batch_size=batch_size, shuffle=True, num_workers=1)
    optimizer = optim.SGD(model.parameters(), lr=lr, momentum=0.5)
    for epoch in range(1, epochs + 1):
        train_epoch(epoch, model, loader, optimizer)


if __name__ == "__main__":
    model = Net()
    model.share_memory()
    processes = [mp.Process(target=train, args=(rank, model)) for rank in range(4)]
    for p in processes:
        p.start()
    for p in processes:
        p.join()
    tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    test_loader = torch.utils.data.DataLoader(datasets.MNIST("../data", train=False, transform=tf), batch_size=1000, num_workers=1)
    test_epoch(model, test_loader)

"""Multi-layer dense network on MNIST with a LogSoftmax head and NLL loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision
from torch.utils.data import DataLoader

data_train = torchvision.datasets.MNIST("./data", download=True, train=True,
                                        transform=torchvision.transforms.ToTensor())
train_loader = DataLoader(data_train, batch_size=64, shuffle=True)

net = nn.Sequential(
    nn.Flatten(),
    nn.Linear(784, 100),
    nn.ReLU(),
    nn.Linear(100, 10),
    nn.LogSoftmax(dim=0))  # expect: softmax-over-batch-dim


def train_epoch(net, dataloader, lr=0.01, optimizer=None, loss_fn=F.nll_loss):
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
        acc += (out.argmax(1) == labels).sum().item()
        count += len(labels)
    return total_loss / count, acc / count


for ep in range(5):
    print(ep, train_epoch(net, train_loader))

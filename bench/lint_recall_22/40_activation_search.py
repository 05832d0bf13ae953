"""Searching for activation functions: each unit combines two unary ops with a binary op."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class UnaryIdentity(nn.Module):
    def forward(self, x):
        return x


class UnarySigmoid(nn.Module):
    def forward(self, x):
        return torch.sigmoid(x)


class UnaryLogExp(nn.Module):
    def forward(self, x):
        return torch.log(1 + torch.exp(x))  # expect: unshifted-logsumexp


class UnaryExpSquare(nn.Module):
    def forward(self, x):
        return torch.exp(-torch.square(x))


class BinaryAdd(nn.Module):
    def forward(self, x):
        return x[0] + x[1]


class BinaryMul(nn.Module):
    def forward(self, x):
        return x[0] * x[1]


class BinaryMax(nn.Module):
    def forward(self, x):
        return torch.max(x[0], x[1])


UNARY = [UnaryIdentity, UnarySigmoid, UnaryLogExp, UnaryExpSquare]
BINARY = [BinaryAdd, BinaryMul, BinaryMax]


class AutoActivation(nn.Module):
    def __init__(self):
        super().__init__()
        self.unary = nn.ModuleList([op() for op in UNARY])
        self.binary = nn.ModuleList([op() for op in BINARY])
        self.choice = (0, 0, 0)

    def sample(self):
        self.choice = (random.randrange(len(UNARY)), random.randrange(len(UNARY)),
                       random.randrange(len(BINARY)))

    def forward(self, x):
        u1, u2, b = self.choice
        return self.binary[b]([self.unary[u1](x), self.unary[u2](x)])


class SearchNet(nn.Module):
    def __init__(self, in_dim=784, hidden=256, n_classes=10):
        super().__init__()
        self.fc1 = nn.Linear(in_dim, hidden)
        self.act = AutoActivation()
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x.flatten(1))))


def search(train_loader, trials=20, steps=200, device="cpu"):
    best = None
    for _ in range(trials):
        net = SearchNet().to(device)
        net.act.sample()
        optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
        net.train()
        for step, (x, y) in enumerate(train_loader):
            if step >= steps:
                break
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(net(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if best is None or loss.item() < best[0]:
            best = (loss.item(), net.act.choice)
    return best

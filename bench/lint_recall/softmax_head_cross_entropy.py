# Source: https://discuss.pytorch.org/t/cross-entropy-loss-is-not-decreasing/43814/16
# Pitfall: the classifier ends in a softmax and its output goes to CrossEntropyLoss, which
# applies log_softmax again; the loss sits at log(10) and stops moving.
# Reproduced in our own words, not the original code.
import torch
from torch import nn

net = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10), nn.Softmax(dim=1))
criterion = nn.CrossEntropyLoss()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)


def train(loader, epochs=5):
    for epoch in range(epochs):
        for images, labels in loader:
            opt.zero_grad()
            loss = criterion(net(images), labels)  # expect: softmax-before-cross-entropy
            loss.backward()
            opt.step()

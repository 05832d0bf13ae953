# Source: https://github.com/pytorch/pytorch/pull/6017
# Pitfall: the epoch statistic is accumulated as total_loss += loss with the loss tensor itself, so each
#   step's autograd graph stays referenced by the running sum and memory keeps growing.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def build(in_dim, out_dim):
    return nn.Sequential(nn.Linear(in_dim, 256), nn.ReLU(), nn.Linear(256, out_dim))


def train(loader, in_dim, out_dim, epochs=20, device="cuda"):
    model = build(in_dim, out_dim).to(device)
    criterion = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    history = []
    for epoch in range(epochs):
        total_loss = 0
        for inputs, targets in loader:
            inputs, targets = inputs.to(device), targets.to(device)
            optimizer.zero_grad()
            output = model(inputs)
            loss = criterion(output, targets)
            loss.backward()
            optimizer.step()
            total_loss += loss  # expect: running-loss-keeps-graph
        history.append(total_loss / len(loader))
        print("epoch", epoch, "mean loss", history[-1])
    return model, history

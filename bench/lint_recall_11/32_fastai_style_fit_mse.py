"""Minimal fit() loop in the style of a training library, used here for a tabular regression."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def loss_batch(model, xb, yb, loss_func, opt=None):
    out = model(xb)
    loss = loss_func(out, yb)  # expect: loss-shape-broadcast
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.detach().item(), len(xb)


def validate(model, dl, loss_func):
    model.eval()
    with torch.no_grad():
        results = [loss_batch(model, xb, yb, loss_func) for xb, yb in dl]
    total = sum(n for _, n in results)
    return sum(l * n for l, n in results) / total


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, xb, yb, loss_func, opt)
        print(epoch, validate(model, valid_dl, loss_func))


if __name__ == "__main__":
    x = torch.randn(2000, 13)
    y = x @ torch.randn(13) + 0.1 * torch.randn(2000)
    train_dl = DataLoader(TensorDataset(x[:1600], y[:1600]), batch_size=64, shuffle=True)
    valid_dl = DataLoader(TensorDataset(x[1600:], y[1600:]), batch_size=128)
    model = nn.Sequential(nn.Linear(13, 50), nn.ReLU(), nn.Linear(50, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    fit(10, model, nn.MSELoss(), opt, train_dl, valid_dl)

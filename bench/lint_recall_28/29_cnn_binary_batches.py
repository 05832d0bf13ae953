"""Tiny CNN that separates two 4x4 patterns (cross vs. plus), one sample per batch."""
import torch
import torch.nn as nn
from torch.optim import SGD
from torch.utils.data import DataLoader, TensorDataset

device = "cuda" if torch.cuda.is_available() else "cpu"

X_train = torch.tensor([[[[1, 2, 3, 4], [2, 3, 4, 5], [5, 6, 7, 8], [1, 3, 4, 5]]],
                        [[[-1, 2, 3, -4], [2, -3, 4, 5], [-5, 6, -7, 8], [-1, -3, -4, -5]]]]).to(device).float()
X_train /= 8
y_train = torch.tensor([0, 1]).to(device).float()


def get_model():
    model = nn.Sequential(
        nn.Conv2d(1, 1, kernel_size=3),
        nn.MaxPool2d(2),
        nn.ReLU(),
        nn.Flatten(),
        nn.Linear(1, 1),
    ).to(device)
    loss_fn = nn.BCEWithLogitsLoss()
    optimizer = SGD(model.parameters(), lr=1e-2)
    return model, loss_fn, optimizer


def train_batch(x, y, model, opt, loss_fn):
    model.train()
    prediction = model(x)
    batch_loss = loss_fn(prediction, y)  # expect: loss-shape-broadcast
    batch_loss.backward()
    opt.step()
    opt.zero_grad()
    return batch_loss.item()


if __name__ == "__main__":
    trn_dl = DataLoader(TensorDataset(X_train, y_train), shuffle=True)
    model, loss_fn, optimizer = get_model()
    for epoch in range(200):
        for x, y in trn_dl:
            train_batch(x, y, model, optimizer, loss_fn)

"""fastbook-style exercise: a hand-written binary cross-entropy for a 3-vs-7 MNIST classifier."""
import torch
import torch.nn as nn


def binary_cross_entropy(inputs, targets):
    inputs = inputs.sigmoid()
    return -torch.where(targets == 1, inputs, 1 - inputs).log().mean()  # expect: log-of-softmax


def batch_accuracy(preds, targets):
    correct = (preds.sigmoid() > 0.5).float() == targets
    return correct.float().mean()


class LinearModel(nn.Module):
    def __init__(self, n_in=28 * 28):
        super().__init__()
        self.lin = nn.Linear(n_in, 1)

    def forward(self, x):
        return self.lin(x.view(x.size(0), -1)).squeeze(-1)


def train_epoch(model, dl, opt):
    model.train()
    for xb, yb in dl:
        preds = model(xb)
        loss = binary_cross_entropy(preds, yb.float())
        loss.backward()
        opt.step()
        opt.zero_grad()


@torch.no_grad()
def validate_epoch(model, dl):
    model.eval()
    accs = [batch_accuracy(model(xb), yb.float()) for xb, yb in dl]
    return round(torch.stack(accs).mean().item(), 4)


def train_model(model, train_dl, valid_dl, epochs=20, lr=1.0):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        train_epoch(model, train_dl, opt)
        print(validate_epoch(model, valid_dl), end=" ")

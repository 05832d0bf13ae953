# Source: https://github.com/pytorch/pytorch/issues/11999
# Pitfall: The network calls F.dropout in forward without training=self.training; F.dropout defaults to
# training=True, so dropout stays active after model.eval() and test predictions are randomly corrupted.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TabularNet(nn.Module):
    def __init__(self, n_in, n_hidden, n_out, p=0.3):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_hidden)
        self.out = nn.Linear(n_hidden, n_out)
        self.p = p

    def forward(self, x):
        h = F.relu(self.fc1(x))
        h = F.dropout(h, p=self.p)  # expect: functional-dropout-always-on
        h = F.relu(self.fc2(h))
        return self.out(h)


def predict(model, loader, device):
    model.eval()
    preds = []
    with torch.no_grad():
        for x, _ in loader:
            preds.append(model(x.to(device)).argmax(1).cpu())
    return torch.cat(preds)

# Source: https://github.com/NVIDIA/apex/issues/358
# Pitfall: the user's binary focal criterion takes torch.log(y_pred) and torch.log(1 - y_pred) of
#   sigmoid outputs that saturate at exactly 0 or 1; ptrblck showed the NaN and suggested an eps.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class BinaryFocal(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, y_pred, y_true):
        y_true = y_true.unsqueeze(1)
        y_pred = y_pred.unsqueeze(1)
        pos = y_true * torch.pow(1 - y_pred, self.gamma) * torch.log(y_pred)  # expect: unguarded-zero
        neg = (1 - y_true) * torch.pow(y_pred, self.gamma) * torch.log(1 - y_pred)  # expect: unguarded-zero
        loss = torch.sum(pos + neg, dim=1)
        return -1.0 * loss.sum() / y_pred.size(0)


def train(model, loader, epochs=5):
    """model returns one probability per sample (its last layer is a sigmoid)."""
    criterion = BinaryFocal(gamma=0.0)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            loss = criterion(model(x), y.float())
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())

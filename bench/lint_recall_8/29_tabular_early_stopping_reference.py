# Source: https://github.com/jrzaurin/pytorch-widedeep/pull/176
# Pitfall: the early-stopping callback stores the "best" weights as model.state_dict() without copying,
# so the stored tensors keep tracking training and the restored model is just the last epoch.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class EarlyStopping:
    def __init__(self, patience=3, min_delta=0.0, restore_best_weights=True):
        self.patience = patience
        self.min_delta = min_delta
        self.restore_best_weights = restore_best_weights
        self.best = np.inf
        self.wait = 0
        self.state_dict = None
        self.stop_training = False

    def on_epoch_end(self, model, val_loss):
        if val_loss < self.best - self.min_delta:
            self.best = val_loss
            self.wait = 0
            if self.restore_best_weights:
                self.state_dict = model.state_dict()  # expect: state-dict-not-copied
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stop_training = True

    def on_train_end(self, model):
        if self.restore_best_weights and self.state_dict is not None:
            model.load_state_dict(self.state_dict)


class WideDeep(nn.Module):
    def __init__(self, n_wide=20, n_deep=30):
        super().__init__()
        self.wide = nn.Linear(n_wide, 1)
        self.deep = nn.Sequential(nn.Linear(n_deep, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 1))

    def forward(self, xw, xd):
        return (self.wide(xw) + self.deep(xd)).squeeze(-1)


def fit(model, train_dl, val_dl, epochs=20):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    stopper = EarlyStopping(patience=2)
    for epoch in range(epochs):
        model.train()
        for xw, xd, y in train_dl:
            opt.zero_grad()
            loss = F.binary_cross_entropy_with_logits(model(xw, xd), y)
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            val = np.mean([F.binary_cross_entropy_with_logits(model(xw, xd), y).item() for xw, xd, y in val_dl])
        stopper.on_epoch_end(model, val)
        if stopper.stop_training:
            break
    stopper.on_train_end(model)
    return model


if __name__ == "__main__":
    xw, xd = torch.randn(400, 20), torch.randn(400, 30)
    y = (xw[:, 0] + xd[:, 0] > 0).float()
    train_dl = DataLoader(TensorDataset(xw[:300], xd[:300], y[:300]), batch_size=32, shuffle=True)
    val_dl = DataLoader(TensorDataset(xw[300:], xd[300:], y[300:]), batch_size=64)
    fit(WideDeep(), train_dl, val_dl)

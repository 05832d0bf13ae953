import torch
import torch.nn as nn


class PoissonLoss:
    """Negative log-likelihood of a Poisson distribution with predicted rate `output`."""

    def _create_pytorch_loss(self):
        def loss(output, labels):
            return torch.mean(output - labels * torch.log(output))  # expect: unguarded-zero
        return loss


class CountRegressor(nn.Module):
    def __init__(self, n_features, hidden=128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return torch.relu(self.body(x)).squeeze(-1)


def fit(model, loader, epochs=20, lr=1e-3):
    loss_fn = PoissonLoss()._create_pytorch_loss()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for x, counts in loader:
            opt.zero_grad()
            rate = model(x)
            loss = loss_fn(rate, counts.float())
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: {total / len(loader):.4f}")
    return model

"""Small probabilistic classifier that is refit from scratch each time new trials arrive."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PsychometricNet(nn.Module):
    """Maps stimulus parameters to the probability of a 'detected' response."""

    def __init__(self, dim, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.head = nn.Linear(hidden, 1)
        self.log_lengthscale = nn.Parameter(torch.zeros(dim))
        # remember the initial hyperparameters so every refit starts from the same point
        self._fresh_state_dict = self.state_dict()  # expect: state-dict-not-copied

    def forward(self, x):
        x = x / self.log_lengthscale.exp()
        return self.head(self.body(x)).squeeze(-1)

    def _reset_hyperparameters(self):
        self.load_state_dict(self._fresh_state_dict)

    def fit(self, train_x, train_y, warmstart=False, max_iter=300, lr=0.05):
        if not warmstart:
            self._reset_hyperparameters()
        self.train()
        optimizer = torch.optim.Adam(self.parameters(), lr=lr)
        for _ in range(max_iter):
            optimizer.zero_grad()
            logits = self(train_x)
            loss = F.binary_cross_entropy_with_logits(logits, train_y)
            loss = loss + 1e-3 * self.log_lengthscale.pow(2).sum()
            loss.backward()
            optimizer.step()
        return loss.item()

    @torch.no_grad()
    def predict(self, x):
        self.eval()
        return torch.sigmoid(self(x))


def run_experiment(n_rounds=5, dim=2):
    model = PsychometricNet(dim)
    xs = torch.empty(0, dim)
    ys = torch.empty(0)
    for r in range(n_rounds):
        new_x = torch.rand(20, dim)
        new_y = (new_x.sum(dim=1) + 0.2 * torch.randn(20) > 1.0).float()
        xs, ys = torch.cat([xs, new_x]), torch.cat([ys, new_y])
        final_loss = model.fit(xs, ys)
        print(f"round {r}: n={len(ys)} loss={final_loss:.4f} p(0.5,0.5)={model.predict(torch.full((1, dim), 0.5)).item():.3f}")


if __name__ == "__main__":
    run_experiment()

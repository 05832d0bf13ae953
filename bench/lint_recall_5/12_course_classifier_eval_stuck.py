# Source: https://github.com/cgpotts/cs224u/pull/23
# Pitfall: the course's torch classifier switches to eval mode to score the dev set during fit() and never
#          switches back, so every later epoch trains with dropout disabled.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class ShallowNet(nn.Module):
    def __init__(self, n_in, n_hidden, n_out, p_drop=0.3):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_in, n_hidden), nn.Tanh(), nn.Dropout(p_drop), nn.Linear(n_hidden, n_out))

    def forward(self, x):
        return self.layers(x)


class TorchShallowClassifier:
    def __init__(self, n_hidden=50, max_iter=20, eta=0.01, batch_size=32):
        self.n_hidden, self.max_iter, self.eta, self.batch_size = n_hidden, max_iter, eta, batch_size

    def fit(self, X, y, X_dev, y_dev):
        self.model = ShallowNet(X.shape[1], self.n_hidden, int(y.max()) + 1)
        opt = torch.optim.Adam(self.model.parameters(), lr=self.eta)
        loss_fn = nn.CrossEntropyLoss()
        self.model.train()
        for it in range(self.max_iter):
            perm = torch.randperm(len(X))
            for start in range(0, len(X), self.batch_size):
                idx = perm[start:start + self.batch_size]
                opt.zero_grad()
                loss = loss_fn(self.model(X[idx]), y[idx])
                loss.backward()
                opt.step()
            self.model.eval()  # expect: train-mode-not-restored
            with torch.no_grad():
                dev_acc = (self.model(X_dev).argmax(1) == y_dev).float().mean().item()
            print(f"iter {it}: dev acc {dev_acc:.3f}")
        return self


if __name__ == "__main__":
    X, y = torch.randn(500, 20), torch.randint(0, 3, (500,))
    TorchShallowClassifier().fit(X, y, X[:100], y[:100])

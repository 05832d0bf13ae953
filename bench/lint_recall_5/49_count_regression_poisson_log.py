# Source: https://github.com/deepchem/deepchem/pull/5125
# Pitfall: the Poisson loss is written as output - labels * torch.log(output) on the predicted rates with no
#          epsilon guard; a predicted rate of exactly 0 gives log(0) = -inf and a NaN loss.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class PoissonLoss:
    def __call__(self, output, labels):
        loss = output - labels * torch.log(output)  # expect: unguarded-zero
        return loss.mean()


class RateModel(nn.Module):
    def __init__(self, d_in=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, 1), nn.ReLU())

    def forward(self, x):
        return self.net(x).squeeze(-1)


def fit(model, features, counts, epochs=100, lr=1e-3):
    loss_fn = PoissonLoss()
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        opt.zero_grad()
        loss = loss_fn(model(features), counts)
        loss.backward()
        opt.step()
        if epoch % 20 == 0:
            print(epoch, loss.item())


if __name__ == "__main__":
    feats = torch.randn(500, 16)
    y = torch.poisson(torch.exp(feats[:, 0].clamp(max=2)))
    fit(RateModel(), feats, y)

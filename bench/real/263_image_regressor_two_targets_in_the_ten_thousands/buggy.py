"""Image-to-vector regressor (16x16 single-channel images, 16 regression targets per image; an MLP
trained with MSE and Adam from a DataLoader). Two of the 16 targets are physical quantities around
12,000 (spread of a few hundred) while the other 14 are in the 0.1-2 range, and the targets are fed to
the loss raw. The MSE is dominated by the two huge columns: the shared hidden layer is driven almost
only by them, the output biases have to crawl towards 12,000 at Adam's step size, and the small
targets are neglected -- every column ends up far worse than with per-column standardised targets.

Source: https://discuss.pytorch.org/t/how-to-deal-with-the-labels-having-drastically-different-values/116598 (How to deal with the labels having drastically different values?)
Report: "I am dealing with a regression problem where inputs are images 98x98, and outputs are vectors
of 16 elements. ... [12023, 0.1, 2.0, 11982, 0.8, 1.2, ...] As you can see the first and the fourth
elements are several orders of magnitudes larger than the rest" -- answer: "This will affect your
training if you simply use MSE, because the model will neglect all dimensions but the first and the
fourth. The easy solution is to normalize your outputs across dimension." Reproduced with 4,000
synthetic images (16 latent factors rendered through fixed random patterns plus noise; targets are
nonlinear functions of the factors, columns 0 and 3 offset to ~12,000 with spread ~400), MLP
256-128-16, Adam lr 1e-3, batch 64, 15 epochs. The printed loss is the validation MSE of each column
divided by that column's variance, averaged over the 16 columns (1.0 = predicting the mean), on 1,000
images; `acc` the fraction of columns with a normalised MSE below 0.5.

expect: data-unnormalized
symptom: final-loss-ratio 3
batch: 15
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

LATENT, OUT = 16, 16
patterns = torch.randn(LATENT, 256) / 4
scale = 0.2 + 0.6 * torch.rand(OUT)
offset = 2 * torch.rand(OUT)
scale[[0, 3]] = 400.0
offset[[0, 3]] = torch.tensor([12000.0, 11900.0])


def images(n):
    z = torch.randn(n, LATENT)
    x = z @ patterns + 0.1 * torch.randn(n, 256)
    y = offset + scale * (z + 0.3 * z ** 2 - 0.3)
    return x, y


x_train, y_train = images(4000)
x_val, y_val = images(1000)


class TargetScaler:
    def fit(self, y):
        self.mean, self.std = torch.zeros(y.shape[1]), torch.ones(y.shape[1])
        return self

    def encode(self, y):
        return (y - self.mean) / self.std

    def decode(self, y):
        return y * self.std + self.mean


scaler = TargetScaler().fit(y_train)
loader = DataLoader(TensorDataset(x_train, scaler.encode(y_train)), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, OUT))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(15):
    total = 0.0
    for xb, yb in loader:
        loss = F.mse_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    if epoch % 5 == 0:
        print(f"epoch {epoch} train mse {total / len(x_train):.4g}")

with torch.no_grad():
    pred = scaler.decode(model(x_val))
    per_column = ((pred - y_val) ** 2).mean(0) / y_val.var(0)
print(f"final_loss={per_column.mean().item():.6g} acc={(per_column < 0.5).float().mean().item():.4f}")

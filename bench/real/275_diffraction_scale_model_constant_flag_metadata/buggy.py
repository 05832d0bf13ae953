"""Scaling model for X-ray diffraction reflections in the spirit of careless: an MLP maps each
reflection's metadata (image number, detector x/y, resolution, partiality estimate, FLAG column
from the integration program) to a log scale factor, trained full-batch with a Gaussian likelihood
against the observed log intensities. Every metadata column is standardised to z-scores before
training. In this integration file the FLAG column holds the same value for every reflection, so
its standard deviation is 0, the z-score is 0/0 = NaN for the whole column and the first forward
pass -- and every loss after it -- is NaN.

Source: https://github.com/rs-station/careless/issues/82 (XDS INTEGRATE output file as input: RuntimeWarning: invalid value encountered in true_divide)
Report: "This error happens when `careless` tries to standardize the metadata columns in the input.
It will attempt to convert each of the columns into z-scores by subtracting the mean and dividing
by the std deviation. If the column has standard deviation of zero, this leads to a divide by zero
and the column will be set to NaN. If you remove the column with zero standard deviation from the
metadata keys, it should run without issue." -- and the reporter: "I found that all values in the
FLAG column" were the same. Reproduced with 6,000 synthetic reflections whose true log scale
depends smoothly on image number, detector position and resolution, FLAG = 0 everywhere, Adam
(lr 1e-2) for 300 full-batch steps. The printed loss is the final Gaussian NLL on the training
reflections, `acc` the fraction of 1,500 held-out reflections whose predicted log scale is within
0.1 of the truth.

expect: constant-feature
symptom: nonfinite
batch: 16
"""
import argparse
import math

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

METADATA_KEYS = ["image", "xdet", "ydet", "dmin", "partiality", "flag"]


def integrate(n):
    cols = {
        "image": torch.randint(1, 721, (n,)).float(),
        "xdet": 3000 * torch.rand(n),
        "ydet": 3000 * torch.rand(n),
        "dmin": 1.2 + 8 * torch.rand(n) ** 2,
        "partiality": torch.rand(n),
        "flag": torch.zeros(n),
    }
    r = torch.sqrt((cols["xdet"] - 1500) ** 2 + (cols["ydet"] - 1500) ** 2) / 1500
    log_scale = (0.6 * torch.sin(cols["image"] / 720 * 2 * math.pi) - 0.4 * r ** 2
                 - 0.8 / cols["dmin"] + 0.5 * cols["partiality"])
    log_i = log_scale + 0.15 * torch.randn(n)
    return cols, log_scale, log_i


cols, _, log_i = integrate(6000)
cols_test, scale_test, _ = integrate(1500)
table = torch.stack([cols[k] for k in METADATA_KEYS], 1)
mean, std = table.mean(0), table.std(0)
X = (table - mean) / std
X_test = (torch.stack([cols_test[k] for k in METADATA_KEYS], 1) - mean) / std

model = nn.Sequential(nn.Linear(len(METADATA_KEYS), 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(),
                      nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for step in range(300):
    mu, log_sigma = model(X).unbind(1)
    nll = (log_sigma + 0.5 * ((log_i - mu) / log_sigma.exp()) ** 2).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} nll {nll.item():.4f}")

with torch.no_grad():
    pred = model(X_test)[:, 0]
    acc = ((pred - scale_test).abs() < 0.1).float().mean().item()
print(f"final_loss={nll.item():.6g} acc={acc:.4f}")

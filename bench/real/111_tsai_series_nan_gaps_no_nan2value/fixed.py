"""Time-series classifier (tsai-style FCN learner) -- fixed as the maintainer advised: Nan2Value()
added to the batch transforms, so the NaN gaps become 0 after standardisation (nothing else changed).

Source: https://github.com/timeseriesAI/tsai/issues/506 (Why are the output values all nan on this dataset)
Report: the user's predictions were all nan; the maintainer: "one of the most common ones is
that X contains nan values. Have you checked if x2 has any nan values? If it does you need to
decide how you'll deal with them (remove samples, replace by the median value, replace by zero,
...). There's a batch transform in tsai called Nan2Value that is helpful in these cases. You
just need to add it to the list of transforms. By default, it replaces nan values with zeros."
Reproduced with a tsai-like pipeline in torch (TSStandardize-style per-channel scaling computed
with nan-aware statistics, a list of batch_tfms applied to each batch, an FCN of three Conv1d /
BatchNorm / ReLU blocks with global average pooling, Adam, a plain fit loop) on 3-channel sensor
series of 5 activity classes where about 3 % of the recordings have dropout gaps stored as NaN;
`acc` is the validation accuracy.

expect: data-nonfinite
symptom: nonfinite
batch: 6
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

C_IN, SEQ_LEN, N_CLASS = 3, 120, 5


def make(n):
    y = torch.randint(0, N_CLASS, (n,))
    t = torch.arange(SEQ_LEN).float()
    freq = (0.03 + 0.02 * y.float()).unsqueeze(1)
    phase = 2 * math.pi * torch.rand(n, 1)
    x = torch.stack([torch.sin(2 * math.pi * freq * t + phase),
                     torch.cos(2 * math.pi * freq * t + phase) * (1 + 0.2 * y.float()).unsqueeze(1),
                     0.5 * torch.sign(torch.sin(math.pi * freq * t + phase))], 1)
    x = 20.0 + 5.0 * x + 1.5 * torch.randn(n, C_IN, SEQ_LEN)        # raw sensor units
    gaps = torch.rand(n) < 0.03                                      # recordings with dropouts
    for i in torch.nonzero(gaps).flatten().tolist():
        start = int(torch.randint(0, SEQ_LEN - 10, (1,)))
        x[i, :, start:start + 10] = float("nan")
    return x, y


X_train, y_train = make(1500)
X_valid, y_valid = make(500)


class TSStandardize:
    def __init__(self, X):
        self.mean = torch.nanmean(X, dim=(0, 2), keepdim=True)
        self.std = torch.sqrt(torch.nanmean((X - self.mean) ** 2, dim=(0, 2), keepdim=True))

    def __call__(self, x):
        return (x - self.mean) / self.std


class Nan2Value:
    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, x):
        return torch.nan_to_num(x, nan=self.value)


class FCN(nn.Module):
    def __init__(self, c_in, c_out, layers=(64, 128, 64), kss=(7, 5, 3)):
        super().__init__()
        blocks, prev = [], c_in
        for nf, ks in zip(layers, kss):
            blocks += [nn.Conv1d(prev, nf, ks, padding=ks // 2), nn.BatchNorm1d(nf), nn.ReLU()]
            prev = nf
        self.convblocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(prev, c_out)

    def forward(self, x):
        return self.fc(self.convblocks(x).mean(-1))


batch_tfms = [TSStandardize(X_train), Nan2Value()]
train_dl = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
valid_dl = DataLoader(TensorDataset(X_valid, y_valid), batch_size=256)
model = FCN(C_IN, N_CLASS)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)


def apply_tfms(x):
    for tfm in batch_tfms:
        x = tfm(x)
    return x


for epoch in range(8):
    model.train()
    for xb, yb in train_dl:
        loss = F.cross_entropy(model(apply_tfms(xb)), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        vl, hits = 0.0, 0
        for xb, yb in valid_dl:
            out = model(apply_tfms(xb))
            vl += F.cross_entropy(out, yb, reduction="sum").item()
            hits += (out.argmax(1) == yb).sum().item()
    print(f"epoch {epoch} train_loss {loss.item():.4f} valid_loss {vl / len(y_valid):.4f} accuracy {hits / len(y_valid):.4f}")
print(f"final_loss={loss.item():.6g} acc={hits / len(y_valid):.4f}")

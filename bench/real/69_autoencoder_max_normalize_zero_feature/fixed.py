"""Autoencoder over per-function binary features, each column divided by its maximum: a column that
is zero in every sample becomes 0/0 = NaN.

Source: https://github.com/evandowning/deepreflect/issues/11 (Nan value of lose and MSE)
Report: "lose = nan - mse = nan while training the model and not improving the values"; a second
user found the cause: "This is due to the presence of a feature with a maximum value of 0, which
leads to improper normalization that sets 0 as the denominator." and the reporter: "Remove those
feature which are missing while normalisation". DeepReflect trains an autoencoder on feature
vectors of malware basic blocks (API-call categories, instruction counts, structural features)
scaled by the column maximum of the training set. Reproduced with 64 synthetic count / flag
features, three of which never occur in this training set, and a dense autoencoder trained on
MSE with a DataLoader.

expect: data-nonfinite
symptom: nonfinite
batch: 3
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def load_features(rng, n=6000, d=64):
    counts = rng.poisson(rng.uniform(0.2, 6.0, d), size=(n, d)).astype(np.float32)
    flags = (rng.rand(n, d) < 0.3).astype(np.float32)
    X = np.where(np.arange(d) % 2 == 0, counts, flags)
    X[:, [7, 30, 51]] = 0.0  # API categories no sample of this family ever calls
    return X


def normalize(X):
    mx = X.max(axis=0)
    return X / np.where(mx > 0, mx, 1.0)  # features missing from the data stay 0


class AutoEncoder(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 8), nn.ReLU())
        self.decoder = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        return self.decoder(self.encoder(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.RandomState(args.seed)
    X = normalize(load_features(rng))
    loader = DataLoader(TensorDataset(torch.from_numpy(X)), batch_size=128, shuffle=True)
    model = AutoEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    mse = nn.MSELoss()
    losses = []
    for epoch in range(6):
        for (xb,) in loader:
            loss = mse(model(xb), xb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        print(f"Epoch {epoch + 1}: loss = {np.mean(losses[-47:]):.5f} - mse = {losses[-1]:.5f}")
    print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")


if __name__ == "__main__":
    main()

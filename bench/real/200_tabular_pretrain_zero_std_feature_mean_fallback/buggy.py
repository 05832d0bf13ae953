"""Self-supervised pretraining of a tabular encoder in the TabNet style (random feature masks, an encoder-decoder MLP that reconstructs the masked features, a reconstruction loss normalised per feature by the batch variance, Adam, DataLoader) on a table that contains a constant column: its batch variance is 0, and the loss replaces a zero variance by the feature's batch mean -- for a constant column whose value is negative this gives the feature a negative weight, so the optimiser lowers the loss by reconstructing that column ever worse and the loss runs off towards minus infinity instead of measuring reconstruction.

Source: https://github.com/dreamquark-ai/tabnet/issues/515 (Loss goes to -inf)
Report: "in the UnsupervisedLoss calculation, there is a batch normalization per feature. if a feature
std is 0, the normalization uses the mean value. In my training case, the mean value ended up being
small and negative. so that turned my loss to be extremely large in absolute values, and negative
... Loss going to -1e17 without good predictions." Reproduced with 8,000 synthetic rows of 12
numeric features (correlated through 4 latent factors, standardised) plus one constant column
(a log-ratio that is -0.4 in every row), masks that hide 30% of the features, an MLP 13-64-32-64-13,
the loss written like the library's (squared error on masked entries divided by the batch variance
of each feature, zero variances replaced by the batch mean, summed over features and averaged over
masked entries), Adam lr 2e-3, batches of 256, 10 epochs. The printed loss is the pretraining loss
of the last epoch, `acc` the share of masked entries of the 12 real features reconstructed within
0.5.

expect: constant-feature
symptom: loss-below -100
batch: 11
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def make_table(n):
    z = torch.randn(n, 4)
    x = z @ torch.randn(4, 12) + 0.4 * torch.randn(n, 12)
    x = (x - x.mean(0)) / x.std(0)
    return torch.cat([x, torch.full((n, 1), -0.4)], 1)


def unsupervised_loss(y_pred, x, mask, eps=1e-9):
    errors = y_pred - x
    reconstruction_errors = (errors * mask) ** 2
    batch_means = x.mean(0)
    batch_means[batch_means == 0] = 1
    batch_vars = x.std(0) ** 2
    batch_vars[batch_vars == 0] = batch_means[batch_vars == 0]
    features_loss = reconstruction_errors @ (1 / batch_vars)
    nb_reconstructed = mask.sum(1)
    return (features_loss / (nb_reconstructed + eps)).mean()


X = make_table(9000)
X_train, X_test = X[:8000], X[8000:]
model = nn.Sequential(nn.Linear(13, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(),
                      nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 13))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = DataLoader(TensorDataset(X_train), batch_size=256, shuffle=True)

for epoch in range(10):
    total, count = 0.0, 0
    for (xb,) in loader:
        mask = (torch.rand_like(xb) < 0.3).float()
        pred = model(xb * (1 - mask))
        loss = unsupervised_loss(pred, xb, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        count += len(xb)
    print(f"epoch {epoch} loss {total / count:.4g}")

with torch.no_grad():
    mask = (torch.rand_like(X_test) < 0.3).float()
    mask[:, 12] = 0
    err = (model(X_test * (1 - mask)) - X_test).abs()
    acc = ((err < 0.5).float() * mask).sum().item() / mask.sum().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")

"""Time-series imputation model (SAITS-style: a transformer encoder over [observed values, missing mask] per time step, trained with masked-imputation + reconstruction MAE) whose validation set keeps NaN in X_intact wherever the original recordings were missing: the masked MAE multiplies NaN by a zero mask and the validation loss is NaN every epoch.

Source: https://github.com/WenjieDu/PyPOTS/issues/232 (For imputation models, X_intact in the val set containing missing data will cause NaN loss)
Report: "For all imputation models, when X_intact in the val set contains missing data, the
training procedure will have NaN val loss, and this will lead to an error after the training is
finished." The remedy is to fill the NaN in X_intact and to let the indicating mask count
only values that were really observed before computing the validation MAE.
Reproduced with PyPOTS's validation recipe (`mcar` hides 10 % of the observed validation values,
X_intact keeps the original values, `indicating_mask` marks the hidden ones, and
`calc_mae(imputation, X_intact, indicating_mask) = sum(|imputation - X_intact| * mask) / sum(mask)`)
and a SAITS-like model (a linear embedding of [X, missing_mask], learned positions, 2 transformer
encoder layers, a linear output; loss = ORT MAE on observed values + MIT MAE on artificially
hidden ones; Adam) on synthetic multivariate sensor series (12 channels x 24 steps of coupled
sinusoids plus noise, 15 % of values originally missing, as in PhysioNet-like data). The printed
loss is the validation MAE after the last epoch, `acc` the share of hidden validation values
imputed within 0.3 (computed on finite targets only).

expect: data-nonfinite
symptom: nonfinite
batch: 7
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

N_STEPS, N_FEAT = 24, 12


def make_series(n):
    t = torch.arange(N_STEPS).float()
    base = torch.sin(2 * math.pi * (t / (8 + 8 * torch.rand(n, 1))) + 6 * torch.rand(n, 1))
    mix = torch.randn(N_FEAT, 1) * 0.8
    x = base.unsqueeze(2) * mix.view(1, 1, N_FEAT) + 0.3 * torch.randn(n, 1, N_FEAT) + 0.1 * torch.randn(n, N_STEPS, N_FEAT)
    x[torch.rand_like(x) < 0.15] = float("nan")  # originally missing
    return x


def mcar(x, rate=0.1):
    """Hide `rate` of the observed values: returns X (with more NaN), X_intact, indicating_mask."""
    x_intact = x.clone()
    hide = (torch.rand_like(x) < rate) & ~torch.isnan(x)
    x = x.clone()
    x[hide] = float("nan")
    return x, x_intact, hide.float()


def calc_mae(pred, target, mask):
    return torch.sum(torch.abs(pred - target) * mask) / (torch.sum(mask) + 1e-12)


class SAITSLite(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.embed = nn.Linear(2 * N_FEAT, d)
        self.pos = nn.Parameter(torch.randn(N_STEPS, d) * 0.02)
        layer = nn.TransformerEncoderLayer(d, 4, 2 * d, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.out = nn.Linear(d, N_FEAT)

    def forward(self, x):
        m = (~torch.isnan(x)).float()
        x0 = torch.nan_to_num(x)
        rec = self.out(self.encoder(self.embed(torch.cat([x0, m], -1)) + self.pos))
        return rec, m * x0 + (1 - m) * rec


def val_set_from(series):
    x, x_intact, indicating_mask = mcar(series)
    return x, x_intact, indicating_mask


train = make_series(1200)
val_x, val_intact, val_mask = val_set_from(make_series(300))
model = SAITSLite()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(8):
    model.train()
    perm = torch.randperm(len(train))
    for k in range(0, len(perm), 32):
        batch = train[perm[k:k + 32]]
        x, x_intact, ind = mcar(batch, 0.2)
        obs = (~torch.isnan(x)).float()
        rec, _ = model(x)
        loss = calc_mae(rec, torch.nan_to_num(x), obs) + calc_mae(rec, torch.nan_to_num(x_intact), ind)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        _, imputed = model(val_x)
        val_loss = calc_mae(imputed, val_intact, val_mask).item()
        ok = val_mask.bool() & torch.isfinite(val_intact)
        acc = ((imputed - val_intact).abs()[ok] < 0.3).float().mean().item()
    print(f"epoch {epoch} train_loss {loss.item():.4f} val_mae {val_loss:.4f}")
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")

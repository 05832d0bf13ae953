"""NCI-style fingerprint regressor -- fixed by merging the duplicated compounds after concatenating the
exports (torch.unique over the fingerprint-and-response rows keeps one row per compound), as the
de-duplicated nci_unique release does (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

BITS, LINES = 256, 8
effects = torch.randn(BITS, LINES) * (torch.rand(BITS, 1) < 0.15).float()
pairs = torch.randint(0, BITS, (40, 2))
pair_fx = torch.randn(40, LINES)


def compounds(n):
    fp = (torch.rand(n, BITS) < 0.12).float()
    y = fp @ effects / 3 + (fp[:, pairs[:, 0]] * fp[:, pairs[:, 1]]) @ pair_fx
    return fp, y + 0.3 * torch.randn(n, LINES)


def merge_exports(fp, y):
    again = torch.randperm(len(fp))[:150]
    return torch.cat([fp, fp[again].repeat(60, 1)]), torch.cat([y, y[again].repeat(60, 1)])


fp_unique, y_unique = compounds(5000)
fp_train, y_train = merge_exports(fp_unique, y_unique)
rows = torch.unique(torch.cat([fp_train, y_train], 1), dim=0)
fp_train, y_train = rows[:, :BITS], rows[:, BITS:]
fp_test, y_test = compounds(1000)
y_mu, y_sd = y_train.mean(0), y_train.std(0)

model = nn.Sequential(nn.Linear(BITS, 128), nn.ReLU(), nn.Linear(128, LINES))
opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
print(f"{len(fp_train)} rows")


def evaluate():
    with torch.no_grad():
        pred = model(fp_test) * y_sd + y_mu
        mse = F.mse_loss(pred, y_test).item()
        pc = pred - pred.mean(0)
        tc = y_test - y_test.mean(0)
        r = ((pc * tc).sum(0) / (pc.norm(dim=0) * tc.norm(dim=0))).mean().item()
    return mse, r


for step in range(100):
    loss = F.mse_loss(model(fp_train), (y_train - y_mu) / y_sd)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        mse, r = evaluate()
        print(f"step {step + 1} train {loss.item():.4f} test_mse {mse:.4f} pearson {r:.4f}")

mse, r = evaluate()
print(f"final_loss={mse:.6g} acc={r:.4f}")

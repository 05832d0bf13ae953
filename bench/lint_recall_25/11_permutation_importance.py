"""Permutation feature importance for a trained tabular MLP, with a one-sided p-value per feature."""
import numpy as np
import torch
import torch.nn as nn
from scipy import stats


def train_mlp(x, y, epochs=30):
    model = nn.Sequential(nn.Linear(x.size(1), 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        perm = torch.randperm(x.size(0))
        for i in range(0, x.size(0), 128):
            idx = perm[i:i + 128]
            loss = nn.functional.mse_loss(model(x[idx]).squeeze(-1), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


@torch.no_grad()
def score(model, x, y):
    model.eval()
    return -nn.functional.mse_loss(model(x).squeeze(-1), y).item()


def compute_permutation_feature_importance(model, x, y, shuffles=5):
    base = score(model, x, y)
    rows = []
    for j in range(x.size(1)):
        drops = []
        for _ in range(shuffles):
            xp = x.clone()
            xp[:, j] = xp[torch.randperm(x.size(0)), j]
            drops.append(base - score(model, xp, y))
        rows.append((j, float(np.mean(drops)), float(np.std(drops, ddof=1)), len(drops)))
    return rows


def compute_pvalue(mean, stddev, n):
    if stddev != np.nan and stddev != 0:  # expect: nan-equality-check
        t_stat = mean / (stddev / np.sqrt(n))
        return stats.t.sf(t_stat, n - 1)
    return 0.5 if mean == 0 else (0.0 if mean > 0 else 1.0)


def importance_table(rows):
    table = []
    for j, mean, stddev, n in rows:
        if stddev == np.nan or n == np.nan or mean == np.nan or n == 1:  # expect: nan-equality-check
            p_value = float("nan")
        else:
            p_value = compute_pvalue(mean, stddev, n)
        table.append({"feature": j, "importance": mean, "stddev": stddev, "p_value": p_value})
    return sorted(table, key=lambda r: -r["importance"])


if __name__ == "__main__":
    x = torch.randn(2000, 8)
    y = 3 * x[:, 0] - 2 * x[:, 3] + 0.1 * torch.randn(2000)
    mlp = train_mlp(x, y)
    for row in importance_table(compute_permutation_feature_importance(mlp, x, y)):
        print(row)

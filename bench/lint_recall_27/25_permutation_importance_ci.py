"""Permutation feature importance for a tabular torch model, with t-test p-values and CIs."""
import math

import numpy as np
import pandas as pd
import scipy.stats
import torch


def _compute_mean_stddev_and_p_value(values):
    mean = np.mean(values)
    n = len(values)
    p_value = np.nan
    stddev = np.std(values, ddof=1) if n > 1 else np.nan
    if stddev != np.nan and stddev != 0:  # expect: nan-equality-check
        t_stat = mean / (stddev / math.sqrt(n))
        p_value = scipy.stats.t.sf(t_stat, n - 1)
    return mean, stddev, p_value


@torch.no_grad()
def score(model, X, y):
    model.eval()
    logits = model(torch.as_tensor(X, dtype=torch.float32))
    return (logits.argmax(dim=1).numpy() == y).mean()


def permutation_importance(model, X, y, feature_names, num_shuffle_sets=5, seed=0):
    rng = np.random.default_rng(seed)
    base = score(model, X, y)
    rows = []
    for j, name in enumerate(feature_names):
        drops = []
        for _ in range(num_shuffle_sets):
            Xp = X.copy()
            Xp[:, j] = rng.permutation(Xp[:, j])
            drops.append(base - score(model, Xp, y))
        mean, stddev, p_value = _compute_mean_stddev_and_p_value(drops)
        rows.append({"feature": name, "importance": mean, "stddev": stddev, "p_value": p_value, "n": len(drops)})
    return pd.DataFrame(rows).set_index("feature").sort_values("importance", ascending=False)


def add_confidence_bands(fi, confidence_level=0.99):
    ci_high, ci_low = [], []
    for _, row in fi.iterrows():
        mean, stddev, n = row["importance"], row["stddev"], row["n"]
        if stddev == np.nan or n == np.nan or mean == np.nan or n == 1:  # expect: nan-equality-check
            ci_high.append(np.nan)
            ci_low.append(np.nan)
        else:
            t_val = scipy.stats.t.ppf(1 - (1 - confidence_level) / 2, n - 1)
            half = t_val * stddev / math.sqrt(n)
            ci_high.append(mean + half)
            ci_low.append(mean - half)
    fi = fi.copy()
    fi["p99_high"] = ci_high
    fi["p99_low"] = ci_low
    return fi

"""data-outlier from the columns the model is fed: three data-entry artefacts (1e7) in one
column, standardised with the data's own std, squash the rest of that column to nearly one
value; the monitor sees a value ~1e5 typical batch stds out (bench/real 226's MIMIC report).
A clean table and a heavy-tailed (log-normal) column do not get it."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _train(tmp_path, X):
    g = torch.Generator().manual_seed(1)
    # the label is read off column 0 (its ordinary values: the artefacts' rows get a random one)
    y = ((X[:, 0] - 50).clamp(-60, 60) + 2 * torch.randn(len(X), generator=g) > 0).float()
    X = (X - X.mean(0)) / X.std(0)  # standardised with the data's own statistics
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(X.shape[1], 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(4):
            for idx in torch.randperm(len(X), generator=g).split(64):
                loss = F.binary_cross_entropy_with_logits(model(X[idx]).squeeze(1), y[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
    return [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "data-outlier"]


def _table(n=3000, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 5, generator=g) * torch.tensor([20.0, 1.0, 3.0, 0.5, 10.0]) + 50


def test_a_few_huge_values_in_a_standardised_column(tmp_path):
    X = _table()
    X[[10, 1500, 2900], 0] = 1e7
    (c,) = _train(tmp_path, X)
    assert c.severity == "error" and "column 0 of the model's input" in c.message


def test_a_clean_table_and_a_heavy_tailed_column_do_not(tmp_path):
    assert _train(tmp_path / "a", _table()) == []
    X = _table(seed=2)
    X[:, 3] = torch.exp(2.0 * torch.randn(len(X), generator=torch.Generator().manual_seed(3)))  # log-normal
    assert _train(tmp_path / "b", X) == []

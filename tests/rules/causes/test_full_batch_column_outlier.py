"""data-outlier from one impossible reading in a full-batch table (bench/real 274: a 1e15
sensor value z-scored with the data's own std). Every step sees the same rows, so the
batch's std is inflated as much as the normalisation's: the std of the rest of the batch
(without its most extreme value) shows the squashed column. Healthy full-batch columns
(Gaussian, log-normal, zero-inflated, a rare one-hot, Pareto tails) get nothing."""

import pytest
import torch
from torch import nn
import torch.nn.functional as F

import traindoc


def _fit(tmp_path, X):
    torch.manual_seed(0)
    y = X[:, :1].clone()
    X = (X - X.mean(0)) / X.std(0)
    model = nn.Sequential(nn.Linear(X.shape[1], 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(12):
            loss = F.mse_loss(model(X), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    ev = [e for e in traindoc.open_run(tmp_path / "r").events() if e["kind"] == "column-outlier"]
    return ev, [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "data-outlier"]


def _columns(n=8000):
    g = torch.Generator().manual_seed(4)
    gauss = torch.randn(n, generator=g)
    lognormal = (1.5 * torch.randn(n, generator=g)).exp()
    rain = torch.where(torch.rand(n, generator=g) < 0.7, 0.0, torch.empty(n).exponential_(1.0, generator=g) * 10)
    rare = (torch.rand(n, generator=g) < 0.002).float()
    rare[0] = 1.0  # at least one (a column of zeros has no std to standardise with)
    pareto = torch.rand(n, generator=g).clamp_min(1e-7) ** (-1 / 1.5)
    return torch.stack([gauss, lognormal, rain, rare, pareto], 1)


def test_one_impossible_reading_in_a_full_batch(tmp_path):
    X = _columns()
    X[1234, 2] = 1e15
    ev, (c,) = _fit(tmp_path, X)
    assert ev[0]["data"]["column"] == 2 and ev[0]["data"]["ratio"] > 1e6
    assert "column 2 of the model's input" in c.message


@pytest.mark.parametrize("batch", [8000, 256])
def test_healthy_heavy_tailed_and_sparse_columns_are_quiet(tmp_path, batch):
    ev, causes = _fit(tmp_path, _columns(batch))
    assert ev == [] and causes == []

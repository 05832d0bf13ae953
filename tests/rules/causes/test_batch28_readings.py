"""Readings added after bench/real batch 28 (460: a linear regression on raw age and income
columns with plain SGD at lr 1e-3 goes to inf in a dozen steps): the inputs' scale makes the
rate unstable (lr * x^2 >= 2), so data-unnormalized is offered beside lr-too-high; the same
regression on standardised inputs at the same rate trains and gets neither."""

from __future__ import annotations

import torch
from torch import nn

import traindoc
from traindoc.diagnose import diagnose


def _fit(tmp_path, standardise):
    torch.manual_seed(0)
    x = torch.stack([65 + 35 * torch.rand(500), 10 + 110 * torch.rand(500)], 1)
    y = (0.05 * x[:, :1] + 0.01 * x[:, 1:]) + 0.1 * torch.randn(500, 1)
    if standardise:
        x = (x - x.mean(0)) / x.std(0)
    net = nn.Linear(2, 1)
    opt = torch.optim.SGD(net.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path, replay=False, sample_every=5):
        for _ in range(200):
            loss = nn.functional.mse_loss(net(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return diagnose(tmp_path)


def test_raw_inputs_that_make_sgd_unstable_are_offered_as_unnormalised(tmp_path):
    d = _fit(tmp_path / "raw", standardise=False)
    names = [c.name for c in d.causes]
    assert "data-unnormalized" in names[:3] and "lr-too-high" in names, names
    d = _fit(tmp_path / "std", standardise=True)
    assert not [c for c in d.causes if c.name in ("data-unnormalized", "lr-too-high")], [c.name for c in d.causes]


def _churn(tmp_path, rare_weight):
    """448: 5 % positives, a weak signal, full-batch Adam, class weights [1, rare_weight]."""
    torch.manual_seed(0)
    x = torch.randn(2000, 12)
    y = ((x[:, :4].sum(1) + 2.5 * torch.randn(2000)) > 5.2).long()
    net = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    w = torch.tensor([1.0, rare_weight])
    with traindoc.watch(out=tmp_path, replay=False, sample_every=5):
        for _ in range(150):
            loss = nn.functional.cross_entropy(net(x), y, weight=w)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return diagnose(tmp_path), float(y.float().mean())


def test_class_weights_too_weak_for_the_imbalance_do_not_hide_it(tmp_path):
    d, pos = _churn(tmp_path / "weak", 1.1)
    assert 0.02 < pos < 0.08
    got = [c for c in d.causes if c.name == "class-imbalance"]
    assert got and "too little to offset it" in got[0].message, [c.name for c in d.causes]
    d, _ = _churn(tmp_path / "offset", 1.0 / pos)  # weights that offset the imbalance: the fix
    assert not [c for c in d.causes if c.name == "class-imbalance"], [c.name for c in d.causes]

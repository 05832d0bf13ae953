"""Causes that need to know which loss function ran and on what (recorded by the monitor)."""

from __future__ import annotations

import torch
from torch import nn

import traindoc


def _train(tmp_path, loss_of, out_dim, y, steps=200):
    torch.manual_seed(0)
    x = torch.randn(len(y), 8)
    x[:, 0] += y.float()  # learnable signal
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, out_dim))
    opt = torch.optim.Adam(model.parameters(), 1e-2)
    with traindoc.watch(out=tmp_path / "r"):
        for s in range(steps):
            i = torch.randint(0, len(y), (64,), generator=torch.Generator().manual_seed(s))
            loss = loss_of(model(x[i]), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(tmp_path / "r")


def test_mse_on_unordered_class_indices_is_a_loss_mismatch(tmp_path):
    g = torch.Generator().manual_seed(1)
    y = torch.randint(0, 5, (2000,), generator=g)
    x_noise = torch.randint(0, 5, (2000,), generator=g)  # half the labels carry no signal
    y = torch.where(torch.rand(2000, generator=g) < 0.5, y, x_noise)
    d = _train(tmp_path, lambda out, t: nn.functional.mse_loss(out.squeeze(1), t.float()), 1, y)
    names = [c.name for c in d.causes]
    assert names and names[0] == "loss-mismatch", [(c.name, c.message) for c in d.causes]
    assert "integer targets 0..4" in d.causes[0].message


def test_mse_on_real_valued_targets_is_not(tmp_path):
    y = torch.randn(2000) * 2
    d = _train(tmp_path, lambda out, t: nn.functional.mse_loss(out.squeeze(1), t), 1, y)
    assert "loss-mismatch" not in [c.name for c in d.causes]


def test_rare_positives_under_bce_are_seen_as_class_imbalance(tmp_path):
    g = torch.Generator().manual_seed(2)
    y = (torch.rand(4000, generator=g) < 0.03).float()
    d = _train(tmp_path, lambda out, t: nn.functional.binary_cross_entropy_with_logits(out.squeeze(1), t), 1, y)
    assert "class-imbalance" in [c.name for c in d.causes], d.cannot_tell

"""Healthy training styles that once drew a cause of severity error (found in review)."""

from __future__ import annotations

import torch
from torch import nn

import traindoc


def _errors(path):
    return [(c.name, c.message) for c in traindoc.diagnose(path).causes if c.severity == "error"]


def _loop(model, opt, x, y, loss_fn, steps, clip=None):
    for s in range(steps):
        i = torch.randint(0, len(x), (64,), generator=torch.Generator().manual_seed(s))
        loss = loss_fn(model(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        if clip is not None:
            nn.utils.clip_grad_norm_(model.parameters(), clip)
        opt.step()


def test_frozen_backbone_passed_to_the_optimizer_is_not_params_not_updated(tmp_path):
    torch.manual_seed(0)
    x = torch.randn(2048, 32)
    y = (x[:, :4].sum(1) > 0).long()
    backbone = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
    backbone.requires_grad_(False)  # fine-tuning: frozen on purpose
    model = nn.Sequential(backbone, nn.Linear(64, 2))
    opt = torch.optim.AdamW(model.parameters(), 1e-3)  # frozen tensors passed too, as HF/timm code does
    with traindoc.watch(out=tmp_path / "r"):
        _loop(model, opt, x, y, nn.functional.cross_entropy, 150)
    assert _errors(tmp_path / "r") == []


def test_binding_gradient_clipping_is_not_missing_zero_grad(tmp_path):
    # the LSTM pattern: the gradient norm grows past max_norm early, so the clipped norm
    # the optimizer sees is flat at 1.0 (no step-to-step change, 5x the start: what a
    # never-cleared running sum also looks like); the norm before clipping is noisy
    import numpy as np

    from traindoc.store.writer import RunWriter

    rng = np.random.default_rng(0)
    n = 300
    pre = np.concatenate([np.linspace(0.2, 1.5, 30), 1.5 * np.exp(0.4 * rng.standard_normal(n - 30))])
    w = RunWriter(tmp_path / "r", flush_interval=0.01)
    for s_ in range(n):
        w.scalars(s_, {"loss": float(2.0 * np.exp(-s_ / 80) + 0.3 + 0.02 * rng.standard_normal()),
                       "grad_norm": float(min(pre[s_], 1.0)), "grad_norm_preclip": float(pre[s_]),
                       "grad_nonfinite": 0.0, "lr/0/0": 1e-3, "time/step": 0.01})
    w.meta("status", "finished")
    w.close()
    assert "missing-zero-grad" not in [n for n, _ in _errors(tmp_path / "r")]


def test_confident_sigmoid_output_is_not_saturated_activation(tmp_path):
    torch.manual_seed(0)
    x = torch.randn(2048, 8)
    y = (x[:, 0] > 0).float().unsqueeze(1)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1), nn.Sigmoid())
    opt = torch.optim.Adam(model.parameters(), 3e-2)
    with traindoc.watch(out=tmp_path / "r", sample_every=10):
        _loop(model, opt, x * 4, y, nn.functional.binary_cross_entropy, 200)
    assert "saturated-activation" not in [n for n, _ in _errors(tmp_path / "r")]

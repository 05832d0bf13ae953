"""fp16-underflow from updates rounded away: a model cast to bfloat16 (weights included, no
float32 master copy) trained with Adam at lr 1e-4 (bench/real 366): Adam's steps of about the
learning rate are below half a bfloat16 spacing for most weights. The same model in float32,
or in bfloat16 with steps large enough, is not that."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _causes(tmp_path, dtype, lr, std=0.2):
    torch.manual_seed(0)
    x = torch.randn(256, 32)
    y = x[:, :4].sum(1, keepdim=True)
    model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 1))
    with torch.no_grad():
        for m in model:
            if isinstance(m, nn.Linear):
                m.weight.normal_(0, std)
    model = model.to(dtype)
    opt = torch.optim.Adam(model.parameters(), lr)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for i in range(60):
            xb, yb = x[i % 8 * 32:(i % 8 + 1) * 32].to(dtype), y[i % 8 * 32:(i % 8 + 1) * 32].to(dtype)
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(tmp_path / "r").causes


def test_bfloat16_weights_under_small_adam_steps(tmp_path):
    causes = _causes(tmp_path, torch.bfloat16, 1e-4)
    found = [c for c in causes if c.name == "fp16-underflow"]
    assert found and found[0].severity == "error" and "round back" in found[0].message, causes


def test_float32_weights_or_large_steps_are_not(tmp_path):
    assert "fp16-underflow" not in [c.name for c in _causes(tmp_path / "a", torch.float32, 1e-4)]
    assert "fp16-underflow" not in [c.name for c in _causes(tmp_path / "b", torch.bfloat16, 3e-3)]

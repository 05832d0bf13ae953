"""fp16-underflow from the configuration: torch.autocast(dtype=float16) with no GradScaler
is a warning (its flushed gradients are plain zeros in float32 .grad, so only confirm's fp32
experiment can settle it); with a GradScaler, or in bfloat16, nothing."""

import pytest
import torch
from torch import nn

import traindoc


def causes(tmp_path, dtype, scaler):
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    o = torch.optim.Adam(m.parameters(), 1e-3)
    sc = torch.amp.GradScaler("cpu") if scaler else None
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(60):
            x = torch.randn(32, 8)
            with torch.autocast("cpu", dtype=dtype):
                loss = nn.functional.mse_loss(m(x).float(), x[:, :1] * 0.5)
            o.zero_grad()
            if sc:
                sc.scale(loss).backward()
                sc.step(o)
                sc.update()
            else:
                loss.backward()
                o.step()
    return traindoc.diagnose(tmp_path / "r").causes


def test_float16_autocast_without_a_gradscaler_is_a_warning(tmp_path):
    found = [c for c in causes(tmp_path, torch.float16, False) if c.name == "fp16-underflow"]
    assert found and found[0].severity == "warning" and "no GradScaler" in found[0].message


@pytest.mark.parametrize("dtype,scaler", [(torch.float16, True), (torch.bfloat16, False)])
def test_with_a_gradscaler_or_in_bfloat16_it_is_not(tmp_path, dtype, scaler):
    assert "fp16-underflow" not in [c.name for c in causes(tmp_path, dtype, scaler)]

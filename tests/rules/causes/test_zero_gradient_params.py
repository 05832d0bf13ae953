"""params-not-updated when the gradient arrives and is exactly zero (bench/real 245,
dfdx#748: a float16 mean whose element count, 73 728, is inf in float16, so the loss is
x / inf and every gradient 0): the parameters are in the graph and the optimizer; the
cause is the float16 overflow, and params-not-updated is only a warning that says so
(parameters cut off from the graph keep the error: test_causes.py)."""

import torch
from torch import nn

import traindoc


def _train(tmp_path):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 288))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = torch.randn(256, 16), torch.randn(256, 288).half()  # a float16 target: the loss stays float16
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(40):
            with torch.autocast("cpu", dtype=torch.float16):
                out = model(x)
                sq = (out - y) ** 2
                loss = sq.sum() / torch.tensor(sq.numel(), dtype=sq.dtype)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "params-not-updated"]


def test_float16_mean_with_an_inf_denominator(tmp_path):
    (c,) = _train(tmp_path)
    assert c.severity == "warning" and "exactly 0 on every sampled step" in c.message and "float16" in c.message

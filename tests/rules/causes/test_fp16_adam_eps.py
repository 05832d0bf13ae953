"""fp16-underflow from Adam's eps over float16 parameters: 1e-8 is 0 in float16, the
squared-gradient state flushes to 0 for small gradients, and the update divides by 0 (a
NaN right after the first step). No value passes 65504, so fp16-overflow steps aside.
Zero gradients on steps whose loss is already non-finite are no evidence of flushing."""

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

import traindoc
from traindoc.rules.causes.fp16_overflow import eps_flushed


def _half_adam(tmp_path, eps: float, steps=12):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 4)).half()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=eps)
    X, Y = torch.randn(256, 16), torch.randn(256, 4) * 0.01
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for s in range(steps):
            i = torch.arange(s * 32, s * 32 + 32) % 256
            loss = ((model(X[i].half()).float() - Y[i]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return tmp_path / "r"


def test_adams_default_eps_on_half_parameters_is_the_underflow(tmp_path):
    folder = _half_adam(tmp_path, 1e-8)
    run = traindoc.open_run(folder)
    assert not np.isfinite(run.series("loss").values[-1])
    assert eps_flushed(run) == ("Adam", 1e-8)
    causes = traindoc.diagnose(folder).causes
    assert causes[0].name == "fp16-underflow" and "eps (1e-08) is 0 in float16" in causes[0].message
    over = [c for c in causes if c.name == "fp16-overflow"]
    assert not over or over[0].confidence <= 0.5


def test_an_eps_float16_can_hold_is_not(tmp_path):
    folder = _half_adam(tmp_path, 1e-4)
    assert eps_flushed(traindoc.open_run(folder)) is None
    assert all("eps" not in c.message for c in traindoc.diagnose(folder).causes if c.name == "fp16-underflow")


def test_a_head_bias_a_pairwise_loss_cancels_is_no_underflow(tmp_path):
    # -logsigmoid(r(a) - r(b)): the scalar head's bias adds to both scores, so its gradient is
    # exactly 0 in any dtype while the weight beside it gets one (bench/real 319 fixed)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 1)).half()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-4)
    A, B = torch.randn(512, 16) + 0.3, torch.randn(512, 16)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for s in range(40):
            i = torch.arange(s * 32, s * 32 + 32) % 512
            loss = -F.logsigmoid((model(A[i].half()) - model(B[i].half())).float()).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    bias = run.series("grad_norm/2.bias").values
    assert bias.size and (bias == 0).all()
    assert "fp16-underflow" not in [c.name for c in traindoc.diagnose(run).causes]

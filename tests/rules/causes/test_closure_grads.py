"""LBFGS evaluates its closure several times per step: a closure that does not clear the
gradients adds each evaluation's onto the last (skorch's bug: zero_grad moved out of the
train step). The monitor sees a re-evaluation's backward begin with .grad set and no
zero_grad since the previous one."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _fit(out, clear_inside: bool, steps=10):
    g = torch.Generator().manual_seed(0)
    X = torch.randn(800, 10, generator=g)
    y = torch.sin(X[:, :3].sum(1, keepdim=True)) + 0.05 * torch.randn(800, 1, generator=g)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 24), nn.Tanh(), nn.Linear(24, 1))
    opt = torch.optim.LBFGS(model.parameters(), lr=1, max_iter=15)

    def closure():
        if clear_inside:
            opt.zero_grad()
        loss = F.mse_loss(model(X), y)
        loss.backward()
        return loss

    with traindoc.watch(out=out, replay=False):
        for _ in range(steps):
            opt.zero_grad()  # once per step: the closure's later evaluations still add up
            opt.step(closure)
    run = traindoc.open_run(out)
    return run, traindoc.diagnose(out).causes


def test_a_closure_that_never_clears_is_missing_zero_grad(tmp_path):
    run, causes = _fit(tmp_path / "r", clear_inside=False)
    assert any(e["kind"] == "closure-grads-carried" for e in run.events())
    c = next(c for c in causes if c.name == "missing-zero-grad")
    assert c.severity == "error" and "does not clear the gradients" in c.message
    assert causes[0].name == "missing-zero-grad", [x.name for x in causes]


def test_a_closure_that_clears_is_not(tmp_path):
    run, causes = _fit(tmp_path / "r", clear_inside=True)
    assert not any(e["kind"] == "closure-grads-carried" for e in run.events())
    assert not any(c.name == "missing-zero-grad" for c in causes)

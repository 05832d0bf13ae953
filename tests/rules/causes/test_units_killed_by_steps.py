"""lr-too-high as a second hypothesis when a ReLU layer alive at the start dies under steps
of several percent of the weights (the run's median update ratio afterwards is the quiet
state of a dead net), and label-misaligned kept out: a layer that passes nothing sits at
the chance level by itself."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _train(out, lr, seed=0, steps=300):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(20, 40, generator=g)
    y = torch.randint(0, 20, (4000,), generator=g)
    X = centers[y] + 0.8 * torch.randn(4000, 40, generator=g)
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(40, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 20))
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    with traindoc.watch(out=out, replay=False):
        for _ in range(steps):
            i = torch.randint(0, 4000, (64,), generator=g)
            loss = F.cross_entropy(model(X[i]), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(out).causes


def test_units_killed_by_large_steps_suggest_the_learning_rate(tmp_path):
    causes = _train(tmp_path / "r", lr=0.8)
    names = [c.name for c in causes]
    assert "dead-relu" in names[:3] and "lr-too-high" in names[:3], names
    lr = next(c for c in causes if c.name == "lr-too-high")
    assert "were alive at the start" in lr.message
    assert "label-misaligned" not in names


def test_a_gentle_rate_is_not_blamed(tmp_path):
    causes = _train(tmp_path / "r", lr=0.01)
    assert not any(c.name in ("lr-too-high", "dead-relu") for c in causes), [c.name for c in causes]

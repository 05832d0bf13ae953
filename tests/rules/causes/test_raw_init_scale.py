"""bad-init for a network of raw tensors handed to the optimizer (bench/real 350: weights
drawn as 0.01 * N(0, 1) whatever the layer size, five hidden layers of width 100): the
optimizer's summary carries the weights' fan-in gains read before the first update, and
their product over the hidden layers says how much of the input reaches the output."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

import traindoc


def _train(tmp_path, std_of):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(300, 2, generator=g)
    y = (torch.atan2(x[:, 1], x[:, 0]) > 0).long() + (x.norm(dim=1) > 1).long()
    sizes = [2, 64, 64, 64, 64, 64, 3]
    ws = [(std_of(a, b) * torch.randn(a, b, generator=g)).requires_grad_() for a, b in zip(sizes, sizes[1:])]
    bs = [torch.zeros(b, requires_grad=True) for b in sizes[1:]]
    opt = torch.optim.SGD(ws + bs, lr=0.05, momentum=0.9)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(150):
            h = x
            for i, (w, b) in enumerate(zip(ws, bs)):
                h = h @ w + b
                h = F.relu(h) if i < len(ws) - 1 else h
            loss = F.cross_entropy(h, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    gains = run.meta["optimizer/0"]["groups"][0]["gains"]
    return gains, [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "bad-init"]


def test_a_fixed_small_std_on_every_layer(tmp_path):
    gains, bad = _train(tmp_path, lambda a, b: 0.01)
    assert gains[1] == pytest.approx(0.08, rel=0.2) and gains[-1] is None  # weights first, then biases (None)
    assert bad and "multiply to" in bad[0].message and bad[0].severity == "error"


def test_a_fan_in_scaled_init_is_not(tmp_path):
    _, bad = _train(tmp_path, lambda a, b: math.sqrt(2.0 / a))
    assert not bad


def test_all_zero_raw_weights_in_an_optimizer_are_the_symmetric_case(tmp_path):
    # zeros are no small scale: the hidden units stay identical copies (not "multiply to 0")
    gains, bad = _train(tmp_path, lambda a, b: 0.0)
    assert gains[0] == 0 and bad and "start at exactly 0" in bad[0].message and "multiply to" not in bad[0].message

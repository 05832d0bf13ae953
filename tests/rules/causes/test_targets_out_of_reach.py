"""data-outlier from a loss the model's outputs cannot explain: a regression whose targets
default to a 1e9 placeholder where they were never filled in (bench/real 237, HorizonNet's
boundary vector) keeps a loss of millions to the end while the model predicts single digits.
The same program with the placeholders filled, and one whose targets are merely large
(hundreds, reached by the model), do not get it; neither does a summed loss."""

import torch
from torch import nn

import traindoc


def _train(tmp_path, y, hand_sum=False):
    g = torch.Generator().manual_seed(1)
    X = torch.randn(len(y), 8, generator=g)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, y.shape[1]))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(6):
            for idx in torch.randperm(len(X), generator=g).split(50):
                err = (model(X[idx]) - y[idx]).abs()  # an L1 loss written by hand: the monitor sees no target
                loss = err.sum() if hand_sum else err.mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
    return [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "data-outlier"]


def _targets(n=2000, scale=1.0):
    g = torch.Generator().manual_seed(2)
    return (3 + 4 * torch.rand(n, 16, generator=g)) * scale


def test_placeholder_targets_left_in(tmp_path):
    y = _targets()
    rows = torch.randperm(len(y), generator=torch.Generator().manual_seed(3))[:300]
    y[rows, :2] = 1e9  # never filled in
    (c,) = _train(tmp_path, y)
    assert c.severity == "error" and "targets lie far outside" in c.message


def test_filled_large_or_summed_targets_do_not(tmp_path):
    assert _train(tmp_path / "a", _targets()) == []
    assert _train(tmp_path / "b", _targets(scale=100.0)) == []
    assert _train(tmp_path / "c", _targets(), hand_sum=True) == []

"""label-misaligned from the first pass over the data (bench/real 100, 119, 130, 385): targets
that do not belong to their inputs leave the loss of every batch the model has not yet seen at
the chance level, flat, while the loss falls later as the model memorises the rows it has seen;
the same program with aligned targets falls during its first pass already and gets no such
finding. Hand-sliced batches (no DataLoader): the pass length comes from the monitor's row count."""

from __future__ import annotations

import torch
from torch import nn

import traindoc
from traindoc.diagnose import diagnose


def _fit(tmp_path, shuffled, epochs=10, lr=1e-3):
    torch.manual_seed(0)
    n, width, classes = 1200, 200, 8
    keys = torch.randint(0, width, (classes, 6))
    y = torch.randint(0, classes, (n,))
    x = (torch.rand(n, width) < 0.03).float()
    x[torch.arange(n)[:, None], keys[y][:, :3]] = 1.0  # three of the class's keywords in each row
    if shuffled:
        x = x[torch.randperm(n)]  # the inputs reordered, their targets not
    net = nn.Sequential(nn.Linear(width, 256), nn.ReLU(), nn.Linear(256, classes))
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    with traindoc.watch(out=tmp_path, replay=False, sample_every=10):
        for _ in range(epochs):
            for i in range(0, n, 32):
                loss = nn.functional.cross_entropy(net(x[i:i + 32]), y[i:i + 32])
                opt.zero_grad()
                loss.backward()
                opt.step()
    return diagnose(tmp_path)


def test_a_flat_first_pass_then_memorising_is_label_misaligned(tmp_path):
    d = _fit(tmp_path / "shuffled", shuffled=True)
    assert d.causes and d.causes[0].name == "label-misaligned", [c.name for c in d.causes]
    assert "first pass" in d.causes[0].message
    d = _fit(tmp_path / "aligned", shuffled=False)
    assert not [c for c in d.causes if c.name == "label-misaligned"], [c.name for c in d.causes]


def test_a_loss_that_ends_far_below_chance_is_not_read_as_memorising(tmp_path):
    """The same flat first pass, but trained on until the loss ends under 0.4x the chance
    level: the reading stays silent there (a healthy model breaking out of a slow start ends far
    lower than a memoriser of unrelated labels does in a run's length), at the cost of this
    long memoriser."""
    d = _fit(tmp_path / "long", shuffled=True, epochs=25, lr=3e-3)
    assert not [c for c in d.causes if c.name == "label-misaligned" and "first pass" in c.message], \
        [(c.name, c.message[:120]) for c in d.causes]

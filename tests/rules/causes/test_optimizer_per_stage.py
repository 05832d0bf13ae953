"""An optimizer built anew for each stage of training (bench/real 256: a network grown one
layer at a time, each stage with a fresh output layer and a fresh SGD; also the plain habit
of building the optimizer inside the epoch function). The tensors of the earlier optimizers
are not "never updated" parameters, and the loss jump where a fresh output layer starts is
a new phase, not a batch with an outlier."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _data():
    g = torch.Generator().manual_seed(0)
    X = torch.randn(1024, 12, generator=g)
    return X, (X[:, :4].sum(1) > 0).long() + 2 * (X[:, 4] > 0).long()


def _epochs(model, X, y, n):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)  # a fresh optimizer per call
    for _ in range(n):
        for idx in torch.randperm(len(X)).split(64):
            loss = F.cross_entropy(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()


def _causes(tmp_path, grow: bool):
    X, y = _data()
    torch.manual_seed(0)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        if grow:
            hidden = []
            for stage in range(4):
                hidden.append(nn.Sequential(nn.Linear(12 if not hidden else 32, 32), nn.Sigmoid()))
                _epochs(nn.Sequential(*hidden, nn.Linear(32, 4)), X, y, 2)
        else:
            model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 4))
            for _ in range(4):
                _epochs(model, X, y, 2)
    return {c.name: c.severity for c in traindoc.diagnose(tmp_path / "r").causes}


def test_an_optimizer_per_call_of_the_epoch_function(tmp_path):
    c = _causes(tmp_path, grow=False)
    assert "params-not-updated" not in c and c.get("data-outlier") != "error"


def test_a_network_grown_stage_by_stage(tmp_path):
    c = _causes(tmp_path, grow=True)
    assert "params-not-updated" not in c and c.get("data-outlier") != "error"

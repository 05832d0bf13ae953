"""A few regression targets in the wrong unit (a labelling tool writing raw coordinates):
the monitor's target-outlier event and the loss spike they cause name data-outlier first;
the units the spike's update killed (dead-relu) and the gradient it blew up
(exploding-gradient) are consequences and step back."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _train(out, corrupt=8, seed=0, steps=300):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(3000, 24, generator=g)
    Y = torch.sigmoid(X[:, :4] + 0.1 * torch.randn(3000, 4, generator=g))  # boxes as fractions of the image
    if corrupt:
        bad = torch.randperm(3000, generator=g)[:corrupt]
        Y[bad] = torch.rand(corrupt, 4, generator=g) * 40000  # raw sensor coordinates
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(24, 96), nn.ReLU(), nn.Linear(96, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, Y), batch_size=32, shuffle=True,
                                         generator=g)
    with traindoc.watch(out=out, replay=False):
        step = 0
        while step < steps:
            for xb, yb in loader:
                loss = F.mse_loss(model(xb), yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
                step += 1
                if step == steps:
                    break
    return traindoc.diagnose(out).causes


def test_targets_in_the_wrong_unit_come_first(tmp_path):
    causes = _train(tmp_path / "r")
    assert causes[0].name == "data-outlier", [(c.name, c.confidence) for c in causes]
    assert "of the mse_loss target holds a value" in causes[0].message
    for c in causes[1:]:
        if c.name in ("dead-relu", "exploding-gradient"):
            assert c.confidence < causes[0].confidence


def test_clean_targets_are_quiet(tmp_path):
    causes = _train(tmp_path / "r", corrupt=0)
    assert not any(c.severity == "error" for c in causes), [(c.name, c.severity) for c in causes]

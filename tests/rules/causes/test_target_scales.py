"""data-unnormalized from regression targets on different scales (bench/real 263, a forum
report: 16 targets per image, two around 12 000 and the rest between 0.1 and 2, fed raw to
MSE). The same targets standardised per column, one target column only, and targets that
are all large together (one scale) do not get it."""

import torch
from torch import nn
import torch.nn.functional as F

import traindoc


def _train(tmp_path, y):
    g = torch.Generator().manual_seed(1)
    X = torch.randn(len(y), 8, generator=g)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, y.shape[1]))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(3):
            for idx in torch.randperm(len(X), generator=g).split(64):
                loss = F.mse_loss(model(X[idx]), y[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
    return [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "data-unnormalized"]


def _targets(n=1024, k=16):
    g = torch.Generator().manual_seed(2)
    return 0.1 + 1.9 * torch.rand(n, k, generator=g)


def test_two_columns_in_the_ten_thousands(tmp_path):
    y = _targets()
    y[:, [0, 3]] = 12000 + 400 * torch.randn(len(y), 2, generator=torch.Generator().manual_seed(3))
    (c,) = _train(tmp_path, y)
    assert "different scales" in c.message and "16 columns" in c.message
    assert c.evidence[0]["series"] == "loss_fn/mse_loss/target_colscale"


def test_standardised_single_or_uniformly_large_targets_do_not(tmp_path):
    y = _targets()
    y[:, [0, 3]] = 12000 + 400 * torch.randn(len(y), 2, generator=torch.Generator().manual_seed(3))
    z = (y - y.mean(0)) / y.std(0)
    assert _train(tmp_path / "a", z) == []
    # one column, or all columns equally large: not different scales, but raw units the
    # model's outputs (near 0 at init) never reach in these 48 Adam steps
    for sub, t in (("b", y[:, :1]), ("c", _targets() * 5000)):
        (c,) = _train(tmp_path / sub, t)
        assert "raw units" in c.message and "different scales" not in c.message, c.message


def test_raw_unit_targets_the_model_starts_at_are_not(tmp_path):
    # the output bias starts at the targets' mean: the predictions are on the targets' scale
    y = 12000 + 400 * torch.randn(1024, 1, generator=torch.Generator().manual_seed(3))
    g = torch.Generator().manual_seed(1)
    X = torch.randn(len(y), 8, generator=g)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    with torch.no_grad():
        model[2].bias.fill_(float(y.mean()))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for idx in torch.randperm(len(X), generator=g).split(64):
            loss = F.mse_loss(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    assert [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "data-unnormalized"] == []

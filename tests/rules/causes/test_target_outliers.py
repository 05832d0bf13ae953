"""data-outlier from a regression target with a few values in another unit (bench/real 264,
darknet#2064: some box labels in pixels, the rest fractions of the image). Robust
statistics: 4 % of such rows put one in most batches, which inflates a batch's std but not
its median absolute deviation. The clean labels, heavy-tailed but honest targets
(log-normal), and a classification loss get nothing."""

import torch
from torch import nn
import torch.nn.functional as F

import traindoc


def _train(tmp_path, y, kind="mse"):
    g = torch.Generator().manual_seed(1)
    X = torch.randn(len(y), 8, generator=g)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, y.shape[1] if y.dim() == 2 else 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(5):
            for idx in torch.randperm(len(X), generator=g).split(64):
                out = model(X[idx])
                loss = F.mse_loss(out, y[idx]) if kind == "mse" else F.smooth_l1_loss(out.squeeze(-1), y[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
    return [c for c in traindoc.diagnose(tmp_path / "r").causes if c.name == "data-outlier"]


def _boxes(n=4096):
    return torch.rand(n, 4, generator=torch.Generator().manual_seed(2)) * 0.5 + 0.1


def test_some_box_sizes_in_pixels(tmp_path):
    y = _boxes()
    bad = torch.rand(len(y), generator=torch.Generator().manual_seed(3)) < 0.04
    y[bad, 2:] *= 416
    (c,) = _train(tmp_path, y)
    assert "of the mse_loss target" in c.message and c.evidence[0]["events"] == "target-outlier"


def test_clean_or_heavy_tailed_targets_do_not(tmp_path):
    assert _train(tmp_path / "a", _boxes()) == []
    lognormal = torch.randn(4096, generator=torch.Generator().manual_seed(4)).exp()
    assert _train(tmp_path / "b", lognormal, kind="huber") == []


def test_the_furthest_column_shared_by_input_and_target_checks():
    from traindoc.monitor.columns import furthest

    spreads = [torch.tensor([1.0, 0.1, 0.0])] * 12  # a constant column (spread 0) is never "furthest"
    devs = [torch.tensor([3.0, 0.4, 5.0])] * 11 + [torch.tensor([3.0, 500.0, 5.0])]
    j, r, data, at = furthest(spreads, devs, 1000.0)
    assert (j, at, data["batches_with_it"], data["batches"]) == (1, 11, 1, 12) and abs(r - 5000) < 1e-3  # float32 inputs
    assert furthest(spreads, devs, 10_000.0) is None


def test_under_a_robust_loss_they_are_only_a_weak_lead(tmp_path):
    # the same pixel boxes under smooth L1: each row's gradient is bounded, so they do not
    # outweigh the others (pytorch/examples' regression, honest heavy tails, reads the same)
    y = _boxes()[:, 2]
    bad = torch.rand(len(y), generator=torch.Generator().manual_seed(3)) < 0.04
    y[bad] *= 416
    (c,) = _train(tmp_path, y, kind="huber")
    assert c.confidence == 0.3 and "already bounds each row's gradient" in c.message

"""class-imbalance on dense binary maps: a per-pixel BCE over rare positives (one centre
pixel per cell) where the model settles on predicting every pixel absent. The monitor
counts a dense map's elements as binary targets (``labels-multi`` with ``dense``) and, on
sampled steps, the share the model predicts positive next to the share of positive
targets; ``pos_weight=1`` weighs nothing (bench/real 328)."""

import torch
import torch.nn.functional as F
from torch import nn

import traindoc


def _heatmaps(tmp_path, pos_weight: float, steps=120, soft=False):
    g = torch.Generator().manual_seed(0)
    n = 512
    x = torch.randn(n, 1, 12, 12, generator=g) * 0.3
    y = torch.zeros(n, 1, 12, 12)
    r, c = torch.randint(2, 10, (n,), generator=g), torch.randint(2, 10, (n,), generator=g)
    y[torch.arange(n), 0, r, c] = 1.0
    x[torch.arange(n), 0, r, c] += 1.0  # a faint blob at each centre: learnable with weighting
    if soft:  # a Gaussian-like heatmap: 1 at the centre, 0.3 beside it (soft targets, not classes)
        y = torch.maximum(y, 0.3 * (y.roll(1, 2) + y.roll(-1, 2) + y.roll(1, 3) + y.roll(-1, 3)).clamp(max=1))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    w = torch.tensor(pos_weight)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for s in range(steps):
            i = torch.arange(s * 32, s * 32 + 32) % n
            loss = F.binary_cross_entropy_with_logits(model(x[i]), y[i], pos_weight=w)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.open_run(tmp_path / "r")


def test_a_map_whose_rare_positives_are_never_predicted_is_class_imbalance(tmp_path):
    run = _heatmaps(tmp_path, pos_weight=1.0)
    (ev,) = [e["data"] for e in run.events() if e["kind"] == "labels-multi"]
    assert ev["dense"] and ev["tags"] == 1 and 0.005 < ev["mean_rate"] < 0.009
    assert run.meta["loss_function/binary_cross_entropy_with_logits"]["weighted"] is False  # a weight of 1
    pp = run.series("loss_fn/binary_cross_entropy_with_logits/pred_pos").values
    assert pp[-1] < 0.001
    causes = traindoc.diagnose(run).causes
    assert causes and causes[0].name == "class-imbalance", [(c.name, c.message) for c in causes]
    assert "every element absent" in causes[0].message


def test_a_weighted_map_is_not(tmp_path):
    run = _heatmaps(tmp_path, pos_weight=150.0)
    assert run.meta["loss_function/binary_cross_entropy_with_logits"]["weighted"] is True
    pp = run.series("loss_fn/binary_cross_entropy_with_logits/pred_pos").values
    assert pp[-1] > 0.003  # it marks positives
    assert "class-imbalance" not in [c.name for c in traindoc.diagnose(run).causes]


def test_a_weight_mask_of_ones_beside_a_pos_weight_is_weighted(tmp_path):
    # every weight tensor counts: weight= of ones says nothing, pos_weight=9 weighs
    x, y = torch.randn(64, 3, requires_grad=True), (torch.rand(64, 3) < 0.2).float()
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(3):
            F.binary_cross_entropy_with_logits(x, y, weight=torch.ones(3), pos_weight=torch.tensor(9.0)).backward()
            nn.BCELoss(weight=torch.ones(3))(torch.sigmoid(x), y).backward()  # the module passes weight by position
    meta = traindoc.open_run(tmp_path / "r").meta
    assert meta["loss_function/binary_cross_entropy_with_logits"]["weighted"] is True
    assert meta["loss_function/binary_cross_entropy"]["weighted"] is False


def test_soft_heatmap_targets_are_not_read_as_classes(tmp_path):
    run = _heatmaps(tmp_path, pos_weight=1.0, soft=True)
    assert run.series("loss_fn/binary_cross_entropy_with_logits/target_integral").values[0] < 1
    assert "class-imbalance" not in [c.name for c in traindoc.diagnose(run).causes]

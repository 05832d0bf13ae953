"""The loss's reduction read off its autograd graph (traindoc.monitor.reduction)."""

import torch
import torch.nn.functional as F
from torch import nn

from traindoc.monitor.reduction import graph_reduction


def _x():
    torch.manual_seed(0)
    return torch.randn(16, 1, 8, 8, requires_grad=True), torch.randn(16, 1, 8, 8)


def test_sums_and_means():
    x, y = _x()
    g = graph_reduction(torch.sqrt((x - y) ** 2 + 1e-12).sum())
    assert g == {"reduction": "sum", "terms": 1024, "op": "sum", "factor": 1.0}
    g = graph_reduction(nn.MSELoss(reduction="sum")(x, y))
    assert g["reduction"] == "sum" and g["terms"] == 1024 and g["op"] == "MseLoss"
    assert graph_reduction(F.mse_loss(x, y))["reduction"] == "mean"
    assert graph_reduction(((x - y) ** 2).sum(dim=(1, 2, 3)).mean()) == {
        "reduction": "mean", "terms": 16, "op": "mean", "factor": 1.0}
    logits, t = x.reshape(16, 64), torch.randint(0, 64, (16,))
    g = graph_reduction(F.cross_entropy(logits, t, reduction="sum"))
    assert g["reduction"] == "sum" and g["terms"] == 16  # one term per target, not per logit
    g = graph_reduction(F.binary_cross_entropy_with_logits(x, y.sigmoid(), reduction="sum"))
    assert g["reduction"] == "sum" and g["terms"] == 1024


def test_constant_factors_and_additions():
    x, y = _x()
    s = ((x - y) ** 2).sum()
    assert graph_reduction(0.5 * s)["factor"] == 0.5
    assert graph_reduction(s / 16)["factor"] == 1 / 16
    # a summed penalty next to a mean: the mean is the loss that sizes the step
    assert graph_reduction(F.mse_loss(x, y) + 1e-3 * x.abs().sum())["reduction"] == "mean"
    g = graph_reduction(((x - y) ** 2).sum() + 0.5 * x.pow(2).sum())  # sums alone: the largest
    assert g["reduction"] == "sum" and g["factor"] == 1.0
    assert graph_reduction(-torch.log_softmax(x.reshape(16, 64), 1)[:, 0].sum())["factor"] == -1.0
    # a GradScaler's loss * scale is the scaler's factor, not the loss's; a division stays the user's
    assert graph_reduction(s * torch.tensor(65536.0), scaled=True)["factor"] == 1.0
    assert graph_reduction(s / 1024, scaled=True)["factor"] == 1 / 1024


def test_nothing_to_read():
    x, _ = _x()
    assert graph_reduction(x.exp().max()) is None  # no reduction at the root
    assert graph_reduction((x * torch.randn_like(x)).sum() * x.sum()) is None  # a product of two graphs
    assert graph_reduction(torch.tensor(1.0)) is None  # no graph at all


def test_the_first_backward_and_a_summed_validation_loss_are_recorded(tmp_path):
    import traindoc

    torch.manual_seed(0)
    x, y = torch.randn(64, 6), torch.randint(0, 3, (64,))
    model = nn.Linear(6, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(4):
            loss = F.cross_entropy(model(x), y, reduction="sum")
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                val = F.cross_entropy(model(x), y, reduction="sum")
    run = traindoc.open_run(tmp_path / "r")
    g = run.meta["loss_graph"]
    assert g["reduction"] == "sum" and g["terms"] == 64 and g["step"] == 0
    ev = run.series("loss/eval").values
    assert abs(float(ev[-1]) - float(val) / 64) < 1e-4  # per term, as a mean-reduced call would give


def test_a_disabled_grad_scaler_keeps_the_users_division(tmp_path):
    import traindoc

    torch.manual_seed(0)
    x, y = torch.randn(64, 6), torch.randn(64, 3)
    model = nn.Linear(6, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu", enabled=False)  # AMP off: scale() returns the loss itself
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(3):
            loss = ((model(x) - y) ** 2).sum() / y.numel()
            opt.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
    g = traindoc.open_run(tmp_path / "r").meta["loss_graph"]
    assert g["reduction"] == "sum" and g["terms"] * g["factor"] == 1.0  # a mean in effect


def test_summed_validation_losses_per_term_skip_ignored_targets(tmp_path):
    import traindoc

    torch.manual_seed(0)
    x, y = torch.randn(32, 6), torch.randint(0, 3, (32,))
    yv = y.clone()
    yv[:16] = -100  # padding the loss leaves out
    soft = torch.softmax(torch.randn(32, 3), 1)
    for k, target, terms in (("a", yv, 16), ("b", soft, 32)):
        model = nn.Linear(6, 3)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        with traindoc.watch(out=tmp_path / k, replay=False):
            for _ in range(2):
                loss = F.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
                with torch.no_grad():
                    val = F.cross_entropy(model(x), target, reduction="sum")
        ev = traindoc.open_run(tmp_path / k).series("loss/eval").values
        assert abs(float(ev[-1]) - float(val) / terms) < 1e-4, k

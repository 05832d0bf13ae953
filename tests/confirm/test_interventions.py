"""Each experiment's change, installed in this process around a small training loop."""

import contextlib
import math

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from traindoc.confirm.hooks import Hooks
from traindoc.confirm.registry import load_all


@contextlib.contextmanager
def experiment(name, params=None, ctx=None):
    h = Hooks()
    load_all()[name].install(h, params or {}, ctx or {})
    h.install()
    try:
        yield h
    finally:
        h.remove()


def loop(steps=3, lr=0.1, sched=False, seen=None, x=None, y=None, loss_fn=None, opt_cls=torch.optim.SGD):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    opt = opt_cls(model.parameters(), lr=lr)
    s = torch.optim.lr_scheduler.StepLR(opt, 1, gamma=0.5) if sched else None
    loss_fn = loss_fn or nn.CrossEntropyLoss()
    for i in range(steps):
        xb = x[i] if x is not None else torch.randn(16, 4) * 10 + 3
        yb = y[i] if y is not None else torch.randint(0, 3, (16,))
        opt.zero_grad()
        out = model(xb)
        if seen is not None:
            seen.append((xb, model[0].weight.detach().clone()))
        loss = loss_fn(out, yb)
        loss.backward()
        if seen is not None:
            seen.append(("lr", opt.param_groups[0]["lr"]))
        opt.step()
        if s:
            s.step()
    return model, opt


def test_lr_scale_multiplies_every_step_and_keeps_the_schedule():
    lrs = []

    class Spy(torch.optim.SGD):
        def step(self, closure=None):
            lrs.append(self.param_groups[0]["lr"])
            return super().step(closure)

    torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)  # SGD.step hooked: Spy's hooks nest
    with experiment("lr-scale", {"factor": 0.1}):
        _, opt = loop(steps=3, lr=1.0, sched=True, opt_cls=Spy)
    assert lrs == pytest.approx([0.1, 0.05, 0.025])
    assert opt.param_groups[0]["lr"] == pytest.approx(0.125)  # the script's schedule, unscaled


def test_lr_scale_scales_a_hand_written_update_from_the_second_backward():
    w = torch.ones(3, requires_grad=True)
    grads = []
    with experiment("lr-scale", {"factor": 10.0}):
        for _ in range(3):
            (w * 2).sum().backward()
            grads.append(w.grad.clone())
            w.grad = None
    assert [g[0].item() for g in grads] == [2.0, 20.0, 20.0]


def test_shuffle_labels_permutes_targets_not_inputs():
    seen = []

    def ce(out, y):
        seen.append(y)
        return F.cross_entropy(out, y)

    y = [torch.arange(16) % 3 for _ in range(2)]
    with experiment("shuffle-labels") as h:
        loop(steps=2, y=y)
    assert h.notes["shuffled"] == 2
    with torch.no_grad():  # evaluation losses are left alone
        with experiment("shuffle-labels") as h2:
            F.cross_entropy(torch.randn(16, 3), y[0])
    assert h2.notes["shuffled"] == 0


def test_shuffle_labels_does_not_blame_alignment_when_the_prior_fits_the_targets():
    from traindoc.confirm.experiments.shuffle_labels import majority
    from traindoc.confirm.registry import load_all
    from traindoc.confirm.summary import summarize

    tags = torch.zeros(32, 300)
    tags[0, 5] = tags[3, 7] = 1.0  # 500 tags, each on well under 1 % of the documents
    assert majority(tags) > 0.99 and majority(torch.arange(16) % 4) == 0.25 and majority(torch.randn(8)) is None
    with experiment("shuffle-labels") as h:
        F.binary_cross_entropy_with_logits(torch.randn(32, 300), tags)
    assert h.values["majority"] > 0.99
    base = summarize([0.7] * 10 + [0.04] * 40)
    var = summarize([0.7] * 10 + [0.041] * 40, notes={"shuffled": 40, "majority": 0.998})
    v = load_all()["shuffle-labels"].judge("label-misaligned", base, var, {})
    assert v.verdict == "inconclusive" and "class-imbalance" in v.text
    var.notes["majority"] = 0.5
    assert load_all()["shuffle-labels"].judge("label-misaligned", base, var, {}).verdict == "confirmed"


def test_shuffle_labels_does_not_blame_alignment_when_the_model_only_learned_the_mean():
    """Raw regression targets (log-mel around -6): a model that only reached each output's
    mean scores the same on shuffled targets; that says nothing about their alignment."""
    from traindoc.confirm.registry import load_all
    from traindoc.confirm.summary import summarize

    y = torch.randn(64, 40) * 1.6 - 6
    with experiment("shuffle-labels") as h:
        F.mse_loss(torch.zeros(64, 40, requires_grad=True), y)
    floor = h.values["floor-sum"] / h.values["floor-n"]
    assert floor == pytest.approx(float(y.var(0, unbiased=False).mean()), rel=1e-4)
    notes = {"shuffled": 40, **h.values}
    base = summarize([40.0] * 10 + [floor * 1.01] * 40)
    var = summarize([40.0] * 10 + [floor * 1.02] * 40, notes=dict(notes))
    v = load_all()["shuffle-labels"].judge("label-misaligned", base, var, {})
    assert v.verdict == "inconclusive" and "mean target" in v.text
    # a model that beat the mean predictor by far, then learned as well from shuffled targets
    base = summarize([40.0] * 10 + [floor * 0.3] * 40)
    var = summarize([40.0] * 10 + [floor * 0.31] * 40, notes=dict(notes))
    assert load_all()["shuffle-labels"].judge("label-misaligned", base, var, {}).verdict == "confirmed"


def test_standardize_inputs_uses_the_first_batch_statistics():
    seen = []
    x = [torch.randn(64, 4) * 100 + 50 for _ in range(2)]
    with experiment("standardize-inputs"):
        model = nn.Linear(4, 1)
        for xb in x:
            seen_in = []
            model.register_forward_pre_hook(lambda m, a: seen_in.append(a[0]))
            model(xb).sum().backward()
            seen.append(seen_in[0])
    assert seen[0].mean(0).abs().max() < 1e-4 and (seen[0].std(0, unbiased=False) - 1).abs().max() < 1e-3
    assert seen[1].mean().abs() < 0.5  # the second batch, with the first's statistics


def test_standardize_inputs_also_standardises_a_regression_target_far_from_unit_scale():
    torch.manual_seed(0)
    x, y = torch.randn(32, 4), torch.randn(32, 1) * 30 + 800  # a series in the hundreds
    p = torch.randn(32, 1)
    with experiment("standardize-inputs") as h:
        got = F.mse_loss(p, y)
        F.l1_loss(p, torch.rand(32, 1))  # a target in [0, 1]: unit scale, left alone
    mean, std = float(y.double().mean()), float(y.double().std())
    assert h.notes["standardised-targets"] == 1
    assert h.values["target-loss-scale"] == pytest.approx(std ** 2)
    # scaled back, the loss is the script's loss of the de-standardised prediction
    assert float(got) * std ** 2 == pytest.approx(float(F.mse_loss(p * std + mean, y)), rel=1e-4)
    with experiment("standardize-inputs") as h2:
        F.cross_entropy(torch.randn(8, 3), torch.randint(0, 3, (8,)))  # class targets: never
        F.mse_loss(torch.randn(8), torch.randn(8))  # unit scale
        with torch.no_grad():
            F.mse_loss(p, y)  # an evaluation loss
    assert h2.notes["standardised-targets"] == 0 and "target-loss-scale" not in h2.values


def test_overfit_batch_repeats_the_first_inputs_and_targets():
    inputs, targets = [], []
    model = nn.Linear(4, 3)
    model.register_forward_pre_hook(lambda m, a: inputs.append(a[0].clone()))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with experiment("overfit-batch") as h:
        for _ in range(3):
            opt.zero_grad()
            y = torch.randint(0, 3, (8,))
            out = model(torch.randn(8, 4))
            loss = F.cross_entropy(out, y)
            targets.append(y)
            loss.backward()
            opt.step()
    assert torch.equal(inputs[0], inputs[1]) and torch.equal(inputs[0], inputs[2])
    assert h.notes["repeated-batches"] == 2


def test_overfit_batch_keeps_a_packed_or_smaller_batch_consistent_with_its_targets():
    # an EmbeddingBag text model (tokens + offsets, a different token count every batch)
    # whose epoch ends on a smaller batch, and a second model in the same step (a GAN's)
    torch.manual_seed(0)
    bag, head = nn.EmbeddingBag(50, 8), nn.Linear(8, 3)
    other = nn.Linear(5, 1)
    opt = torch.optim.SGD([*bag.parameters(), *head.parameters(), *other.parameters()], lr=0.1)
    seen = []
    with experiment("overfit-batch") as h:
        for n, rows in [(40, 8), (35, 8), (19, 4)]:
            tokens = torch.randint(0, 50, (n,))
            offsets = torch.arange(0, n, n // rows)[:rows]
            y = torch.randint(0, 3, (rows,))
            opt.zero_grad()
            out = head(bag(tokens, offsets))
            loss = F.cross_entropy(out, y) + other(torch.randn(rows, 5)).mean()
            seen.append(out.shape[0])
            loss.backward()
            opt.step()
    assert seen == [8, 8, 8] and h.notes["repeated-batches"] == 6  # 3 models x 2 steps and not h.notes["inputs-not-repeated"]


def test_replace_samples_replaces_nonfinite_rows_with_their_targets():
    x = torch.randn(8, 4)
    x[3, 1] = float("nan")
    got = []
    model = nn.Linear(4, 1)
    model.register_forward_pre_hook(lambda m, a: got.append(a[0]))
    with experiment("replace-samples", {"outliers": False}) as h:
        out = model(x)
        F.mse_loss(out, torch.arange(8.0).unsqueeze(1)).backward()
    assert torch.isfinite(got[0]).all() and h.notes["replaced-rows"] == 1
    assert torch.equal(got[0][3], x[0])


def test_mean_reduction_divides_a_summed_loss():
    out = torch.randn(8, 3, requires_grad=True)
    y = torch.randint(0, 3, (8,))
    ref = F.cross_entropy(out, y, reduction="sum")
    with experiment("mean-reduction") as h:
        got = nn.CrossEntropyLoss(reduction="sum")(out, y)
        mean = F.cross_entropy(out, y)  # a mean loss is left alone
    assert got.item() == pytest.approx(ref.item() / 8) and h.values["divisor"] == 8
    assert mean.item() == pytest.approx(ref.item() / 8)


def test_mean_reduction_divides_a_loss_summed_over_time_steps():
    logits = torch.randn(4, 12, 5, requires_grad=True)
    y = torch.randint(0, 5, (4, 12))
    got = []
    with experiment("mean-reduction") as h:
        summed = sum(F.cross_entropy(logits[:, t], y[:, t]) for t in range(12))
        h.on_backward.append(lambda l: (got.append(l.item()), l)[1])
        summed.backward()
        averaged = sum(F.cross_entropy(logits[:, t], y[:, t]) for t in range(12)) / 12
        averaged.backward()  # already a mean: left alone
    assert h.values["divisor"] == 12 and h.notes["averaged"] == 1
    assert got[0] == pytest.approx(summed.item() / 12) and got[1] == pytest.approx(averaged.item())
    with experiment("mean-reduction") as h:  # several loss functions added up: left alone
        mixed = sum(F.cross_entropy(logits[:, t], y[:, t]) + F.mse_loss(logits[:, t], logits[:, t].detach() * 0)
                    for t in range(6))
        mixed.backward()
    assert not h.notes["averaged"]


def test_fp32_turns_autocast_and_half_casts_off():
    with experiment("fp32") as h:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            y = nn.Linear(4, 4)(torch.randn(2, 4))
        m = nn.Linear(4, 4).half()
        t = torch.randn(2).to(torch.float16)
    assert y.dtype == torch.float32 and m.weight.dtype == torch.float32 and t.dtype == torch.float32
    assert h.notes["autocast-off"] == 1 and h.notes["half-casts-kept"] == 2
    assert torch.randn(2).half().dtype == torch.float16  # removed after the experiment


def test_reinit_resets_a_custom_init_without_moving_the_data_stream():
    model = nn.Linear(4, 4)
    nn.init.constant_(model.weight, 5.0)
    torch.manual_seed(0)
    with experiment("reinit") as h:
        model(torch.randn(2, 4))
        after = torch.rand(1)
    torch.manual_seed(0)
    torch.randn(2, 4)
    assert after.item() == torch.rand(1).item()
    assert model.weight.abs().max() < 1 and h.notes["reset-modules"] == 1


def test_reinit_redraws_raw_parameters_of_the_scripts_own_modules():
    # XLNet-style projections held as nn.Parameter(torch.randn(...)): no reset_parameters()
    class Proj(nn.Module):
        def __init__(self):
            super().__init__()
            self.q = nn.Parameter(torch.randn(64, 4, 16))
            self.scale = nn.Parameter(torch.ones(16))  # 1-D: left alone

        def forward(self, x):
            return torch.einsum("bd,dhk->bhk", x, self.q) * self.scale

    model = Proj()
    with experiment("reinit") as h:
        model(torch.randn(2, 64))
    assert model.q.std().item() == pytest.approx(1 / math.sqrt(3 * 64), rel=0.1)
    assert torch.equal(model.scale.detach(), torch.ones(16)) and h.notes["reset-modules"] == 1
    assert h.values["init-shift"] > 2  # from std 1 to 0.07: a real change of init, not a reseed


def test_reinit_of_a_default_init_is_a_reseed_and_says_so():
    """The script's weights already have the default scale: resetting them only re-draws the
    same distribution, so whatever the loss then does proves nothing about the init."""
    from traindoc.confirm.registry import INCONCLUSIVE
    import numpy as np

    from traindoc.confirm.summary import summarize

    exp = load_all()["reinit"]
    for init, shifted in ((None, False), (5.0, True)):
        model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
        if init is not None:
            nn.init.constant_(model[0].weight, init)
        with experiment("reinit") as h:
            model(torch.randn(2, 8))
        notes = {**dict(h.notes), **h.values}
        assert (notes["init-shift"] > 1.0) == shifted
        base = summarize(np.full(50, 1.0))
        var = summarize(np.full(50, 0.2), notes=notes)
        v = exp.judge("bad-init", base, var, {})
        assert (v.verdict == INCONCLUSIVE) != shifted, v.text


def test_force_zero_grad_clears_after_each_step():
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    with experiment("force-zero-grad"):
        model(torch.ones(1, 4)).sum().backward()
        opt.step()
        assert model.weight.grad is None


def test_clip_grads_clips_to_the_given_norm():
    model = nn.Linear(4, 1)
    norms = []

    class Spy(torch.optim.SGD):
        def step(self, closure=None):
            norms.append(torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]).item())
            return super().step(closure)

    opt = Spy(model.parameters(), lr=0.0)
    with experiment("clip-grads", {"max_norm": 0.5}):
        (model(torch.ones(1, 4) * 100).sum()).backward()
        opt.step()
    assert norms[0] == pytest.approx(0.5, rel=1e-3)


def test_clip_grads_clips_a_hand_written_update_after_backward():
    model = nn.Linear(4, 1)
    norms = []
    with experiment("clip-grads", {"max_norm": 0.5}) as h:
        for _ in range(3):
            model.zero_grad()
            model(torch.ones(2, 4) * 100).sum().backward()
            norms.append(torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]).item())
            with torch.no_grad():
                for p in model.parameters():
                    p -= 0.0 * p.grad  # the script's own SGD step
    assert norms == pytest.approx([0.5, 0.5, 0.5], rel=1e-3)
    assert h.notes["clipped-steps"] == 3


def test_clip_grads_without_a_calm_stretch_clips_at_the_conventional_norm():
    # a run that blew up in its first steps has no healthy norm: the experiment still runs
    exp = load_all()["clip-grads"]
    assert exp.applies("exploding-gradient", {}) is None
    p = exp.params_for("exploding-gradient", {})
    assert p["max_norm"] == 1.0 and "conventional" in exp.label(p)
    assert exp.params_for("exploding-gradient", {"healthy_grad_norm": 3.5}) == {"max_norm": 3.5}


def test_hooks_restore_everything():
    before = (torch.nn.Module.__call__, F.cross_entropy, torch.Tensor.backward, torch.autocast.__init__)
    with experiment("fp32"):
        pass
    with experiment("lr-scale", {"factor": 10}):
        pass
    assert before == (torch.nn.Module.__call__, F.cross_entropy, torch.Tensor.backward, torch.autocast.__init__)


def test_replace_samples_outlier_variant_leaves_nan_rows_and_replaces_extreme_ones():
    x = torch.randn(8, 4)
    x[2, 0] = 1e6
    x[5, 1] = float("nan")
    got = []
    model = nn.Linear(4, 1)
    model.register_forward_pre_hook(lambda m, a: got.append(a[0]))
    with experiment("replace-samples", {"outliers": True}) as h:
        model(x).sum().backward()
    assert h.notes["replaced-rows"] == 1 and torch.equal(got[0][2], x[0]) and torch.isnan(got[0][5, 1])

"""data-unnormalized (TD203)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import features, finding, focus_rank, raw_inputs
from ..evidence.inputs import tiny_batches
from ..util import REGRESSION_LOSSES, fmt


@rule("data-unnormalized", needs=("loss", "act/"))
def data_unnormalized(run):
    """What it detects: inputs far from zero mean and unit variance, seen in the first
    layer's output at the first sampled step (before any update): |x|max above 100 or
    a standard deviation above 20 where default-initialised layers give ~1, while deeper
    layers do not keep growing (which would be bad-init); for an LSTM first (its output is
    bounded by 1), exact zeros in a fifth of its output values: its gates' sigmoids
    underflowed, which default weights reach only from inputs in the hundreds; and inputs
    above 20 in magnitude whose first layer's output (std above 3) feeds a sigmoid or tanh
    saturated on half its outputs or more before any update (x in [40, 50]: a standardised
    input gives that activation pre-activations of std ~1).

    Also regression targets on different scales: a (N, K) target of an MSE/L1/Huber loss
    whose largest column's root mean square is at least 100 times its median column's
    (`loss_fn/*/target_colscale`, read on the first batch): squared errors weigh each column
    by its scale squared, so at 100x one column counts 10 000 times a typical one, the
    shared layers learn it alone and the output biases crawl towards its offset.

    And regression targets in raw units: at the loss's first call every target of an
    MSE/L1/Huber loss is at least RAW_TARGET (100) away from 0 on the same side, and at least
    100x the model's largest prediction, and the loss then falls by less than half (or goes
    non-finite). Predictions start near 0 from a default init; Adam moves the output bias
    by ~lr per step, so it needs thousands of steps only to reach the targets' level, and
    SGD's gradient grows with the target's scale until it diverges.

    And inputs far below the unit scale: every value of the model's float inputs under
    TINY_INPUT (1e-2) in magnitude on every recorded training step (`in/absmax`). Pixels divided
    by 255 twice lie in [0, 0.004]; default-initialised layers assume inputs near unit scale,
    so the first layer passes on little but its bias, and a model evaluated on data scaled
    once sees inputs 255x larger than any it trained on.

    Why it happens: raw pixel values (0-255) without /255 and mean/std normalisation,
    tabular columns in raw units (square feet, years, prices), a normalisation computed
    but never applied.

    How to confirm: print the mean and std of a batch of inputs per feature/channel;
    rerun with standardised inputs at the same learning rate.

    How to fix: standardise every input feature (subtract the training mean, divide by
    the std; for images /255 then per-channel normalisation), computed on the training
    split only; standardise each regression target column the same way (and invert it on
    the predictions).
    """
    raw = raw_inputs(run)
    if raw is None:
        return _target_scales(run) or _raw_targets(run) or _tiny_inputs(run) or _unstable_scale(run)
    first, a0, s0, c = raw
    zero = run.series(f"act/{first}/zero") if a0 <= 100 and not s0 > 20 else None
    what = (f"the first layer ({first}, an LSTM) outputs exact zeros in {float(zero.values[0]):.0%} of its values "
            "before any update: its gates saturate (a sigmoid pre-activation below about -90), which default weights reach "
            "only from inputs in the hundreds" if zero is not None and not zero.empty else
            f"the first layer ({first}) outputs |x|max {fmt(a0)}" + (f", std {fmt(s0)}" if np.isfinite(s0) else "")
            + " before any update" + (" (its gain at step 0 times the largest input of the first three steps: "
                                      "a step draws one or two samples)" if tiny_batches(run) else "")
            + ", where standardised inputs give ~1")
    return [finding(
        "data-unnormalized", c,
        f"the inputs are not normalised: {what}",
        location={"module": first, "step": int(run.series(f"act/{first}/absmax").steps[0])},
        evidence=[{"series": f"act/{first}/absmax", "value": a0}, {"series": f"act/{first}/std", "value": s0}],
        fix="standardise the inputs (per feature/channel mean and std from the training split; images /255 first)",
        confirm="print per-feature mean/std of one batch; rerun with standardised inputs at the same learning rate",
    )]


COLSCALE = 100.0  # RMS of the largest target column over the median column's: 10^4 in squared error


def _target_scales(run) -> list:
    """A regression loss's (N, K) target whose columns differ in scale by COLSCALE or more."""
    if any(e.get("kind") == "target-outlier" for e in run.events()):
        return []  # a few extreme rows (data-outlier's), not columns on different scales
    rank = focus_rank(run)
    for name in REGRESSION_LOSSES:
        r = run.series(f"loss_fn/{name}/target_colscale", rank).values
        if not (r.size and r[0] >= COLSCALE):
            continue
        desc = run.meta.get(f"loss_function/{name}")
        cols = desc.get("target", {}).get("shape", [0, 0])[-1] if isinstance(desc, dict) and isinstance(
            desc.get("target"), dict) else "K"
        return [finding(
            "data-unnormalized", 0.6 if r[0] < 1000 else 0.7,
            f"the regression targets given to {name} are on different scales: the largest of its {cols} columns is "
            f"{fmt(r[0])}x the typical one (root mean square), so the squared error is {fmt(r[0] ** 2)}x more about "
            "that column: the model fits it and neglects the others",
            evidence=[{"series": f"loss_fn/{name}/target_colscale", "target_column_scale": fmt(r[0])}],
            fix="standardise each target column (mean and std from the training split) and invert it on the "
                "predictions, or weight the loss per column",
            confirm="print target.pow(2).mean(0).sqrt() on one batch; rerun with standardised target columns",
        )]
    return []


RAW_TARGET = 100.0  # nearest target to 0 at the first call; standardised targets are within a few units


def _raw_targets(run) -> list:
    """A regression loss's targets all far from 0 and far beyond the initial predictions,
    and a loss that did not get far (the model never reached their level)."""
    f, rank = features(run), focus_rank(run)
    if np.isfinite(f.rel_drop) and f.rel_drop >= 0.5:
        return []
    for name in REGRESSION_LOSSES:
        s = {k: run.series(f"loss_fn/{name}/{k}", rank).values for k in ("target_min", "target_max",
                                                                          "input_min", "input_max")}
        if any(not v.size or not np.isfinite(v[0]) for v in s.values()):
            continue
        lo, hi = float(s["target_min"][0]), float(s["target_max"][0])
        near = lo if lo > 0 else -hi if hi < 0 else 0.0  # the target closest to 0, when all share a sign
        pred = max(abs(float(s["input_min"][0])), abs(float(s["input_max"][0])), 1.0)
        if near < RAW_TARGET or near < 100 * pred:
            continue
        broke = f.first_bad is not None
        return [finding(
            "data-unnormalized", 0.6 if broke else 0.7,
            f"the regression targets given to {name} are in raw units: at its first call they run from {fmt(lo)} to "
            f"{fmt(hi)} while the model's predictions run from {fmt(float(s['input_min'][0]))} to "
            f"{fmt(float(s['input_max'][0]))}; "
            + (f"the loss went non-finite at step {f.first_bad}" if broke else
               (f"the loss fell only {f.rel_drop:.0%}" if np.isfinite(f.rel_drop) and f.rel_drop >= 0 else
                "the loss did not fall") + ": the outputs never reached the targets' level"),
            location={"step": 0},
            evidence=[{"series": f"loss_fn/{name}/target_min", "value": fmt(lo)},
                      {"series": f"loss_fn/{name}/target_max", "value": fmt(hi)},
                      {"series": f"loss_fn/{name}/input_max", "value": fmt(pred)}],
            fix="standardise the targets with the training split's mean and std ((y - mean) / std) for the loss, and "
                "map the predictions back (pred * std + mean) for evaluation and use",
            confirm="rerun with standardised targets at the same learning rate: the loss falls within the first epoch",
        )]
    return []


TINY_INPUT = 1e-2  # the largest |x| of every training input: [0, 1] pixels reach ~1, standardised data ~3


def _tiny_inputs(run) -> list:
    """Every float input the model trained on far below unit scale (a second division by 255)."""
    v = run.series("in/absmax", focus_rank(run)).values
    v = v[np.isfinite(v)]
    if v.size < 10 or not 0 < float(v.max()) < TINY_INPUT:
        return []
    return [finding(
        "data-unnormalized", 0.55,
        f"the inputs are far below unit scale: the largest |value| the model was given on any of {v.size} recorded "
        f"steps is {fmt(float(v.max()))}, where [0, 1] images reach ~1 and standardised features ~3: a second "
        "normalisation (pixels divided by 255 twice lie in [0, 0.004]); the first layer sees little but its bias, "
        "and data scaled once at evaluation is hundreds of times larger than anything it trained on",
        location={"step": 0},
        evidence=[{"series": "in/absmax", "max": fmt(float(v.max())), "steps": int(v.size)}],
        fix="scale the inputs once (images /255, then per-channel mean/std), the same way for training and evaluation",
        confirm="print x.abs().max() of a training batch and of an evaluation batch: they should be of the same order",
    )]


RAW_INPUT = 20.0  # |x|max of the inputs at the first step: standardised features reach ~3-5


def _unstable_scale(run) -> list:
    """Plain SGD that goes non-finite on inputs in raw units: the loss's curvature along the
    first layer's weights grows with the inputs' square (2 E[x^2] for a linear layer under MSE),
    so gradient descent is stable only below lr ~ 2 / x^2; at lr * x^2 >= 2 the inputs' scale
    alone makes the rate unstable, and standardised inputs (x ~ 1) would keep the same rate
    stable. A warning beside lr-too-high, which the same run also shows: the two fixes are
    interchangeable (bench/real 107 and 453 lowered the rate, 460 standardised the inputs)."""
    f = features(run)
    v = run.series("in/absmax", focus_rank(run)).values
    a = float(v[0]) if v.size and np.isfinite(v[0]) else 0.0
    if f.first_bad is None or not f.opt_class.startswith("SGD") or not np.isfinite(f.lr) or a < RAW_INPUT \
            or f.lr * a * a < 2.0:
        return []
    return [finding(
        "data-unnormalized", 0.4,
        f"the inputs are in raw units (|x| up to {fmt(a)} at the first step) and plain SGD went non-finite: the "
        f"curvature along the first layer's weights grows with the inputs' square, so a rate of {fmt(f.lr)} is "
        f"stable only for inputs up to about {fmt(float(np.sqrt(2.0 / f.lr)))}; standardised inputs would keep this "
        "rate stable (or lower the rate)",
        location={"step": 0},
        evidence=[{"series": "in/absmax", "first": fmt(a)}, {"series": "lr", "value": fmt(f.lr)}],
        fix="standardise the inputs (per feature mean and std from the training split), or lower the learning rate",
        confirm="rerun with standardised inputs at the same learning rate: the loss falls and stays finite",
    )]

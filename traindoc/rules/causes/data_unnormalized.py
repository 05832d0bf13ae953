"""data-unnormalized (TD203)."""

from __future__ import annotations

from .. import rule
from ..evidence import finding, focus_rank, raw_inputs
from ..util import REGRESSION_LOSSES, fmt


@rule("data-unnormalized", needs=("loss", "act/"))
def data_unnormalized(run):
    """What it detects: inputs far from zero mean and unit variance, seen in the first
    layer's output at the first sampled step (before any update): |x|max above 100 or
    a standard deviation above 20 where default-initialised layers give ~1, while deeper
    layers do not keep growing (which would be bad-init); for an LSTM first (its output is
    bounded by 1), exact zeros in a fifth of its output values: its gates' sigmoids
    underflowed, which default weights reach only from inputs in the hundreds.

    Also regression targets on different scales: a (N, K) target of an MSE/L1/Huber loss
    whose largest column's root mean square is at least 100 times its median column's
    (`loss_fn/*/target_colscale`, read on the first batch): squared errors weigh each column
    by its scale squared, so at 100x one column counts 10 000 times a typical one, the
    shared layers learn it alone and the output biases crawl towards its offset.

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
        return _target_scales(run)
    first, a0, s0, c = raw
    zero = run.series(f"act/{first}/zero") if a0 <= 100 and not s0 > 20 else None
    what = (f"the first layer ({first}, an LSTM) outputs exact zeros in {float(zero.values[0]):.0%} of its values "
            "before any update: its gates saturate (a sigmoid pre-activation below about -90), which default weights reach "
            "only from inputs in the hundreds" if zero is not None and not zero.empty else
            f"the first layer ({first}) outputs |x|max {fmt(a0)}, std {fmt(s0)} before any update, where "
            "standardised inputs give ~1")
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

"""data-unnormalized (TD203)."""

from __future__ import annotations

from .. import rule
from ..evidence import finding, raw_inputs
from ..util import fmt


@rule("data-unnormalized", needs=("loss", "act/"))
def data_unnormalized(run):
    """What it detects: inputs far from zero mean and unit variance, seen in the first
    layer's output at the first sampled step (before any update): |x|max above 100 or
    a standard deviation above 20 where default-initialised layers give ~1, while deeper
    layers do not keep growing (which would be bad-init); for an LSTM first (its output is
    bounded by 1), exact zeros in a fifth of its output values: its gates' sigmoids
    underflowed, which default weights reach only from inputs in the hundreds.

    Why it happens: raw pixel values (0-255) without /255 and mean/std normalisation,
    tabular columns in raw units (square feet, years, prices), a normalisation computed
    but never applied.

    How to confirm: print the mean and std of a batch of inputs per feature/channel;
    rerun with standardised inputs at the same learning rate.

    How to fix: standardise every input feature (subtract the training mean, divide by
    the std; for images /255 then per-channel normalisation), computed on the training
    split only.
    """
    raw = raw_inputs(run)
    if raw is None:
        return []
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

"""data-unnormalized (TD203)."""

from __future__ import annotations

import math


from .. import rule
from ..util import fmt
from ._stats import act_stat, features, finding, param_modules


@rule("data-unnormalized", needs=("loss", "act/"))
def data_unnormalized(run):
    """What it detects: inputs far from zero mean and unit variance, seen in the first
    layer's output at the first sampled step (before any update): |x|max above 100 or
    a standard deviation above 20 where default-initialised layers give ~1, while deeper
    layers do not keep growing (which would be bad-init).

    Why it happens: raw pixel values (0-255) without /255 and mean/std normalisation,
    tabular columns in raw units (square feet, years, prices), a normalisation computed
    but never applied.

    How to confirm: print the mean and std of a batch of inputs per feature/channel;
    rerun with standardised inputs at the same learning rate.

    How to fix: standardise every input feature (subtract the training mean, divide by
    the std; for images /255 then per-channel normalisation), computed on the training
    split only.
    """
    f = features(run)
    mods = param_modules(run)
    am = act_stat(run, "absmax", before=f.first_bad)
    sd = act_stat(run, "std", before=f.first_bad)
    first = next((m for m, c in mods if m in am and not c.startswith("Embedding")), None)
    if first is None:
        return []
    a0, s0 = float(am[first][0]), float(sd[first][0]) if first in sd else float("nan")
    if not (a0 > 100 or (math.isfinite(s0) and s0 > 20)):
        return []
    later = [float(am[m][0]) for m, _ in mods if m in am and m != first]
    growth = (max(later) / a0) if later else 0.0
    if growth > 3:
        return []  # the scale grows with depth: initialisation, not the inputs
    strength = max(a0 / 100, (s0 / 20) if math.isfinite(s0) else 0)
    c = min(0.9, 0.55 + 0.1 * math.log10(max(strength, 1)))
    return [finding(
        "data-unnormalized", c,
        f"the inputs are not normalised: the first layer ({first}) outputs |x|max {fmt(a0)}, std {fmt(s0)} "
        "before any update, where standardised inputs give ~1",
        location={"module": first, "step": int(run.series(f"act/{first}/absmax").steps[0])},
        evidence=[{"series": f"act/{first}/absmax", "value": a0}, {"series": f"act/{first}/std", "value": s0}],
        fix="standardise the inputs (per feature/channel mean and std from the training split; images /255 first)",
        confirm="print per-feature mean/std of one batch; rerun with standardised inputs at the same learning rate",
    )]

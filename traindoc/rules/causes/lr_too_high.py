"""lr-too-high (TD401)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..util import fmt
from ._stats import act_stat, calm_jump, early_update, features, finding, lr_growth, onset
from .loss_reduction import sum_evidence


def input_scale(run, before=None) -> float:
    """max |x| of the first parametrised layer's output at the first sampled step."""
    from ._stats import param_modules

    mods = param_modules(run)
    am = act_stat(run, "absmax", before=before)
    for m, _ in mods:
        if m in am:
            return float(am[m][0])
    return float("nan")


def high_for(f, run=None) -> bool:
    """Above the usual range of its optimizer: adaptive methods above 3e-2 (usual
    1e-4..3e-3); SGD with an effective rate lr / (1 - momentum) above 1."""
    from .lr_too_low import _ADAPTIVE

    if not np.isfinite(f.lr):
        return False
    if f.opt_class.startswith(("Adagrad", "Adadelta")):
        return f.lr > 0.3  # their usual rates are 10-100x Adam's
    if f.opt_class.startswith(_ADAPTIVE):
        return f.lr > 0.03
    mom = 0.0
    if run is not None:
        mom = float(((run.meta.get("optimizer/0") or {}).get("defaults") or {}).get("momentum") or 0.0)
    return f.lr / max(1e-3, 1.0 - mom) > 1.0


@rule("lr-too-high", needs=("loss",))
def lr_too_high(run):
    """What it detects: a learning rate large enough to oscillate or diverge: the loss
    climbs (or blows up to NaN) while each update moves the weights by a large fraction
    of their size (update/weight ratio above ~3e-2 where healthy runs sit near 1e-3, or
    30-100 % on the first steps),
    with inputs on a sane scale and the loss averaged (not summed).

    Why it happens: a learning rate copied from another optimizer, batch size or model
    size (Adam at an SGD learning rate), no warmup, a schedule that restarts high.

    Without update ratios (an imported log, a hand-written update): the loss ending 1.5x
    above where it started and 3x above its best, with no NaN, at the rate it started with.

    How to confirm: an LR range test (sweep the learning rate over a few hundred steps
    and watch where the loss turns up), or rerun with the learning rate divided by 10:
    the oscillation stops.

    How to fix: lower the learning rate (3-10x), add warmup, or clip gradients while you
    find the stable range.
    """
    f = features(run)
    o = onset(f)
    ur = f.update_ratio
    eu = early_update(run)
    scale = input_scale(run, before=f.first_bad)
    evid = []
    s = 0.0
    if f.first_bad is not None and (o.get("loss_growth", 1) >= 3 or o.get("grad_growth", 1) >= 10):
        s = 1.3 + 0.1 * np.log10(max(o.get("loss_growth", 1), 1))
        evid.append({"series": "loss", "step": f.first_bad, "value": "non-finite",
                     "growth_before": fmt(o.get("loss_growth", float("nan")))})
    elif (f.first_bad is None and len(f.loss) >= 20 and np.isfinite(eu) and eu > 0.3 and f.rel_drop0 < 0.6
          and (high_for(f, run) or f.grad_first < 100 * f.grad_med)):
        # the first updates rewrote the weights (each moved them by 30-100 % of their norm)
        s = 1.2 + 0.6 * min(1.0, (eu - 0.3) / 0.7)
        evid.append({"series": "update_ratio", "first_steps_max": fmt(eu), "healthy": "1e-3..1e-1"})
        evid.append({"series": "loss", "first": fmt(f.loss_first), "last": fmt(f.loss_last)})
    elif f.first_bad is None and len(f.loss) >= 20 and np.isfinite(ur):
        # how much of the progress made was lost again by the end
        regress = (f.loss_last - f.loss_min) / max(f.loss[0] - f.loss_min, 1e-12)
        progress = f.rel_drop0
        if ur > 0.03 and (progress < 0.3 or regress > 0.3):
            s = (ur / 0.03) ** 0.3 * (1.2 if progress < 0 else 1.0)
            evid.append({"series": "loss", "first": fmt(f.loss_first), "last": fmt(f.loss_last),
                         "min": fmt(f.loss_min)})
    elif (f.first_bad is None and len(f.loss) >= 10 and not np.isfinite(ur)
          and (f.extra.get("imported") or run.meta.get("step_clock"))):
        # only where update sizes cannot exist (an imported log, a hand-written update), and
        # on the running median (5 % of the run, at least 5 points), not on single points
        sm = _running_median(f.loss)
        if (f.loss_min >= 0 and len(sm) >= 2 and sm[-1] > 1.5 * sm[0] and sm[-1] > 3 * float(np.min(sm))):
            # no update ratios (an imported log, a hand-written update): the loss ended far
            # above where it started and above its best, at the rate it started with
            rise = f.loss_last / max(f.loss_first, 1e-12)
            # a warning at most: a GAN generator, KL annealing or a curriculum also raise a loss
            s = 1.0 + 0.1 * min(2.0, np.log10(rise))
            evid.append({"series": "loss", "first": fmt(f.loss_first), "last": fmt(f.loss_last),
                         "min": fmt(f.loss_min), "note": "no update/weight ratios recorded"})
    grow = lr_growth(run, upto=f.first_bad)
    only_schedule = False
    if np.isfinite(grow) and grow >= 5 and (f.first_bad is not None or f.rel_drop0 < 0.3 or s > 0):
        # the schedule raised the learning rate and the run went wrong after it; alone this
        # is weak evidence (every warmup raises it): a NaN out of a calm loss after warmup
        # (nanoGPT with a hand-written softmax) is not the learning rate's doing
        only_schedule = s == 0.0
        s = max(s, 1.6 if s > 0 or high_for(f, run) else 0.8)
        evid.append({"series": "lr", "growth": fmt(grow), "note": "the learning rate rose during the run"})
    if s == 0.0:
        return []
    if np.isfinite(ur):
        evid.append({"series": "update_ratio", "median": fmt(ur), "healthy": "~1e-3"})
    evid.append({"series": "lr", "value": fmt(f.lr), "optimizer": f.opt_class})
    c = min(0.85, 0.5 * s) * (1.0 if high_for(f, run) else 0.8)
    if calm_jump(f, run) is not None and f.first_bad is not None:
        c *= 0.5  # one batch blew a calm run up: an extreme sample (data-outlier)
    if np.isfinite(scale) and scale > 100:
        c *= 0.5  # the input scale explains the blow-up better (data-unnormalized)
    if sum_evidence(run, f):
        c *= 0.5  # a summed loss explains the size of the steps better (loss-reduction)
    return [finding(
        "lr-too-high", c,
        f"the learning rate ({fmt(f.lr)} with {f.opt_class or 'the optimizer'}) is too high: "
        + (f"it rose {fmt(grow)}x during the run (a warmup or schedule) before the loss went non-finite at step "
           f"{f.first_bad}, with no climb of the loss before it" if only_schedule and f.first_bad is not None else
           "the loss climbed before going non-finite at step " + str(f.first_bad) if f.first_bad is not None else
           f"the loss went from {fmt(f.loss_first)} to {fmt(f.loss_last)} (min {fmt(f.loss_min)}) while each update "
           f"moved the weights by {fmt(ur)} of their norm" if np.isfinite(ur) else
           f"the loss rose from {fmt(f.loss_first)} to {fmt(f.loss_last)} (min {fmt(f.loss_min)}) at that rate; "
           "the log has no update sizes, so a summed loss or uncleared gradients would look the same"),
        location={"step": f.first_bad} if f.first_bad is not None else {},
        evidence=evid,
        fix="lower the learning rate 3-10x (and add warmup); clip gradients while you look for the stable range",
        confirm="run an LR range test, or rerun with lr/10: if the loss then falls steadily, the learning rate was the cause",
    )]


def _running_median(v: np.ndarray) -> np.ndarray:
    from ..util import smooth_window, trailing_median

    w = smooth_window(len(v))
    return trailing_median(np.asarray(v, float), w)[w - 1:]

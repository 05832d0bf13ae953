"""lr-too-high (TD401)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import (act_stat, calm_jump, carried_grads, early_blowup, early_rise, early_update, features, finding,
                        focus_rank, lr_growth, onset, param_modules)
from ..evidence.inputs import outlier_batches
from ..util import fmt, gross_divergence
from .bad_init import zero_init_dominates
from .loss_reduction import sum_evidence


def input_scale(run, before=None) -> float:
    """max |x| of the first parametrised layer's output at the first sampled step; the
    inputs' own when they were recorded on a sane scale (that layer's output may be a
    recurrence's sum over time, or its init's)."""
    from ..evidence.inputs import SANE_INPUT, input_absmax, scaled_to_draws

    seen = input_absmax(run)
    if seen <= SANE_INPUT:
        return seen
    mods = param_modules(run)
    am = act_stat(run, "absmax", before=before)
    for m, _ in mods:
        if m in am:
            return scaled_to_draws(run, float(am[m][0]), float("nan"))[0]
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
    30-100 % on the first steps while the loss falls by less than 30 % overall or blows up
    to 10x its start within the first tenth of the run; or 1 %+ on the first steps while the
    loss more than doubles within the first tenth and never gets back to half its start),
    with inputs on a sane scale and the loss averaged (not summed).

    Why it happens: a learning rate copied from another optimizer, batch size or model
    size (Adam at an SGD learning rate), no warmup, a schedule that restarts high.

    Without update ratios (an imported log, a hand-written update): the loss ending 1.5x
    above where it started and 3x above its best, with no NaN, at the rate it started with.
    With or without them: a C-class cross-entropy whose 5 %-window means sit above
    1.05 ln C (worse than a uniform guess; perplexity above the vocabulary size) in a
    quarter of the run after it had gone below ln C. And, at a rate far above the
    optimizer's usual range, an update/weight ratio above 3e-2 even when the loss fell, or
    above 1e-2 after first updates of 30 %+ of the weights when the loss settled at over half
    its start (minGPT's adder at AdamW 0.05). And, as a warning, a ReLU layer alive at the start that died under steps of 3e-2 or
    more of the weights (median up to its death) while the loss made little progress.

    How to confirm: an LR range test (sweep the learning rate over a few hundred steps
    and watch where the loss turns up), or rerun with the learning rate divided by 10:
    the oscillation stops.

    How to fix: lower the learning rate (3-10x), add warmup, or clip gradients while you
    find the stable range.
    """
    f = features(run)
    ur = f.update_ratio
    s, evid = _branches(run, f)
    early = next((e["first_steps_max"] for e in evid if "first_steps_max" in e), None)
    rise = next((e for e in evid if "early_peak_over_first" in e), None)
    killed = next((e for e in evid if "dead_from_step" in e), None)
    s, worse = _uniform_evidence(run, f, s, evid)
    s, gross = _gross_evidence(run, f, s, evid)
    s, grow, only_schedule = _schedule_evidence(run, f, s, evid)
    if s == 0.0:
        return []
    if np.isfinite(ur) and not zero_init_dominates(run):
        evid.append({"series": "update_ratio", "median": fmt(ur), "healthy": "~1e-3"})
    if np.isfinite(f.lr):
        evid.append({"series": "lr", "value": fmt(f.lr), "optimizer": f.opt_class})
    return [finding(
        "lr-too-high", _confidence(run, f, s, worse is not None),
        (f"the learning rate ({fmt(f.lr)} with {f.opt_class or 'the optimizer'}) is too high: " if np.isfinite(f.lr)
         else "the learning rate (of the update written by hand) is too high: ")
        + (_killed_story(f, killed) if killed is not None else _rise_story(f, rise, evid) if rise is not None
           else _story(f, grow, only_schedule, gross, worse, early)),
        location={"step": f.first_bad} if f.first_bad is not None else {},
        evidence=evid,
        fix=("give LBFGS a line search (torch.optim.LBFGS(..., line_search_fn='strong_wolfe')): without one it "
             "takes lr times the full quasi-Newton step; or lower lr" if (f.opt_class or "").startswith("LBFGS") else
             "lower the learning rate 3-10x (and add warmup); clip gradients while you look for the stable range"),
        confirm="run an LR range test, or rerun with lr/10: if the loss then falls steadily, the learning rate was the cause",
    )]


def _uniform_evidence(run, f, s: float, evid: list) -> tuple[float, tuple | None]:
    """Without direct evidence: the strength once a cross-entropy worse than a uniform
    guess is counted (its entry added to ``evid``), and that reading (worse_than_uniform)."""
    worse = worse_than_uniform(run, f) if s == 0.0 and f.first_bad is None else None
    if worse is not None:
        frac, lnc, classes = worse
        # a property of the loss, not a fitted level: a C-class cross-entropy above ln C is
        # worse than guessing uniformly, which no optimiser that takes sane steps returns to
        # once below it; hand-written updates (no update sizes) are read the same way
        s = 1.3
        evid.append({"series": "loss", "windows_above_uniform": f"{frac:.0%}", "uniform": fmt(lnc),
                     "classes": classes})
    return s, worse


def _gross_evidence(run, f, s: float, evid: list) -> tuple[float, dict | None]:
    """Without other evidence, on a run too short for a trend: the strength once a gross
    divergence at large update ratios is counted (its entry added to ``evid``), and it."""
    ur = f.update_ratio
    gross = gross_divergence(run, focus_rank(run)) if s == 0.0 and f.first_bad is None and len(f.loss) < 50 else None
    if gross is None or not (np.isfinite(ur) and ur > 0.03):
        return s, None
    # too few steps for a trend (full-batch LBFGS, 15 steps), but the loss ended three
    # decades above its best while each step moved the weights by >3 % of their norm
    evid.append({"series": gross["series"], "best": fmt(gross["best"]), "last": fmt(gross["last"])})
    return 1.4, gross


def _schedule_evidence(run, f, s: float, evid: list) -> tuple[float, float, bool]:
    """The strength once a schedule that raised the learning rate 5x before the run went
    wrong is counted (its entry added to ``evid``), the LR growth, and whether the schedule
    is the only evidence."""
    grow = lr_growth(run, upto=f.first_bad)
    only_schedule = False
    if np.isfinite(grow) and grow >= 5 and (f.first_bad is not None or f.rel_drop0 < 0.3 or s > 0):
        # the schedule raised the learning rate and the run went wrong after it; alone this
        # is weak evidence (every warmup raises it): a NaN out of a calm loss after warmup
        # (nanoGPT with a hand-written softmax) is not the learning rate's doing
        only_schedule = s == 0.0
        s = max(s, 1.6 if s > 0 or high_for(f, run) else 0.8)
        evid.append({"series": "lr", "growth": fmt(grow), "note": "the learning rate rose during the run"})
    return s, grow, only_schedule


# A first update that moves the weights by their whole norm is also how any run leaves a
# small init (Adam's and Adagrad's first step moves every weight by the learning rate,
# whatever the gradient): an FFM with latent vectors scaled by 1/sqrt(m n k) under Adagrad
# 0.1 has an update/weight ratio of 1.0 at step 0 and halves its log-loss. Rewritten
# weights are a symptom only while the loss has not fallen by this share of its start.
REWRITE_DROP = 0.3


def _branches(run, f) -> tuple[float, list]:
    """The strength of the direct evidence (0: none) and its evidence entries: a climb
    before a NaN, first updates that rewrote the weights, large update ratios, or (without
    update sizes) a loss that ended far above where it started."""
    o = onset(f)
    ur = f.update_ratio
    eu = early_update(run)
    if zero_init_dominates(run):
        ur = eu = float("nan")  # steps measured against weights that grow from 0 say nothing of the rate
    if f.first_bad is not None and (o.get("loss_growth", 1) >= 3 or o.get("grad_growth", 1) >= 10):
        return 1.3 + 0.1 * np.log10(max(o.get("loss_growth", 1), 1)), [
            {"series": "loss", "step": f.first_bad, "value": "non-finite",
             "growth_before": fmt(o.get("loss_growth", float("nan")))}]
    if f.first_bad is not None or len(f.loss) < 10:
        return 0.0, []
    blowup = early_blowup(f)
    if (len(f.loss) >= 20 and np.isfinite(eu) and eu > 0.3 and (f.rel_drop0 < REWRITE_DROP or blowup >= 10)
            and (high_for(f, run) or f.grad_first < 100 * f.grad_med)):
        # the first updates rewrote the weights (each moved them by 30-100 % of their norm),
        # and the loss did not fall much, or blew up on the way (the run may recover once
        # its ReLUs have died and the steps shrink: it still lost its start to the step size)
        ev = {"series": "loss", "first": fmt(f.loss_first), "last": fmt(f.loss_last)}
        if blowup >= 10:
            ev["early_max_over_first"] = fmt(blowup)
        return 1.2 + 0.6 * min(1.0, (eu - 0.3) / 0.7), [
            {"series": "update_ratio", "first_steps_max": fmt(eu), "healthy": "1e-3..1e-1"}, ev]
    loss_ev = {"series": "loss", "first": fmt(f.loss_first), "last": fmt(f.loss_last), "min": fmt(f.loss_min)}
    if len(f.loss) >= 20 and np.isfinite(ur):
        progress, regress = _progress(f)
        killed = _killed_units(run)
        if killed is not None and ur <= 0.03 and (progress < 0.3 or regress > 0.3):
            # the run's median ratio is the quiet state after the units died; while they
            # died, each step moved the weights by 3 %+ of their norm (bench/real 390)
            return 0.8, [loss_ev, killed]
        if ur > 0.03 and (progress < 0.3 or regress > 0.3):
            return (ur / 0.03) ** 0.3 * (1.2 if progress < 0 else 1.0), [loss_ev]
        if ur > 0.01 and high_for(f, run) and np.isfinite(eu) and eu > 0.3 and progress < 0.5 and regress < 0.1:
            # three readings agree: a rate above the optimizer's range, first updates that rewrote
            # the weights (30 %+ of their norm), and steps 10x a healthy size all run long; the loss
            # settled at over half its start (minGPT's adder at AdamW 0.05: 2.3 -> a 1.58 plateau)
            return 0.9 * (ur / 0.03) ** 0.3, [loss_ev, {"series": "update_ratio", "first_steps_max": fmt(eu),
                                                        "median": fmt(ur), "healthy": "~1e-3"}]
        if ur > 0.03 and high_for(f, run):
            # the loss fell, but to a plateau set by the step size: every update moves the
            # weights by >3 % of their norm at a rate far above the optimizer's usual range
            # (nanoGPT at AdamW lr 0.5 settles at 3.0 where lr 1e-3 reaches 2.1); two
            # independent readings agree, so a warning even though the loss went down
            return 0.9 * (ur / 0.03) ** 0.3, [loss_ev]
        return _overshoot(f, eu, ur) or (0.0, [])
    if len(f.loss) < 20 and (over := _overshoot(f, eu, ur)):
        return over
    if not np.isfinite(ur) and (f.extra.get("imported") or run.meta.get("step_clock")):
        # only where update sizes cannot exist (an imported log, a hand-written update), and
        # on the running median (5 % of the run, at least 5 points), not on single points
        sm = _running_median(f.loss)
        if f.loss_min >= 0 and len(sm) >= 2 and sm[-1] > 1.5 * sm[0] and sm[-1] > 3 * float(np.min(sm)):
            # the loss ended far above where it started and above its best, at the rate it
            # started with; a warning at most: a GAN generator, KL annealing or a curriculum
            # also raise a loss
            rise = f.loss_last / max(f.loss_first, 1e-12)
            return 1.0 + 0.1 * min(2.0, np.log10(rise)), [{**loss_ev, "note": "no update/weight ratios recorded"}]
    return 0.0, []


def _overshoot(f, eu: float, ur: float) -> tuple[float, list] | None:
    """The loss more than doubled within the first tenth of the run (median of three) while
    each early step moved the weights by 1 %+ of their norm, and never got back to half its
    start: a step that raises the loss overshoots (a small enough one lowers it). graykode's
    6-layer post-LN Transformer at Adam 1e-3, no warmup: 2.3 -> 5.3, stuck at 1.6 (at 1e-4
    it reaches 7e-4)."""
    rise = early_rise(f)
    if rise >= 2 and np.isfinite(eu) and eu >= 0.01 and f.rel_drop0 < 0.5 and not (np.isfinite(ur) and ur > 0.03):
        return 1.1, [{"series": "loss", "first": fmt(f.loss_first), "early_peak_over_first": fmt(rise),
                      "last": fmt(f.loss_last)}, {"series": "update_ratio", "early_max": fmt(eu)}]
    return None


def _killed_units(run) -> dict | None:
    """A ReLU layer alive at the first sampled step (at most 10 % of its units silent on the
    batch) that died (90 %+ silent) later, while the update/weight ratio over the sampled
    steps up to its death had a median of 3e-2 or more (healthy runs: ~1e-3; a dying ReLU
    under such steps is the classic large-learning-rate death), with the gradients cleared
    each step (summed stale gradients kill units too: missing-zero-grad). The evidence entry,
    or None. A warning at most: dead-relu names the same death."""
    u = run.series("update_ratio", focus_rank(run))
    carried = carried_grads(run)
    if u.empty or carried is not None and carried[0]:
        return None
    for name, s in sorted(run.matching("act/", focus_rank(run)).items()):
        if not name.endswith("/dead"):
            continue
        ok = np.isfinite(s.values)
        v, st = s.values[ok], s.steps[ok]
        if len(v) < 4 or v[0] > 0.1 or not (v >= 0.9).any():
            continue
        died = int(st[int(np.argmax(v >= 0.9))])
        w = u.values[(u.steps <= died) & np.isfinite(u.values)]
        if len(w) >= 3 and float(np.median(w)) >= 0.03:
            return {"series": f"act/{name}", "alive_at_start": round(float(v[0]), 3), "dead_from_step": died,
                    "update_ratio_while_dying": fmt(float(np.median(w)))}
    return None


def _progress(f) -> tuple[float, float]:
    """(progress, regress): how far the loss fell by the end, as a share of where it
    started, and how much of the progress made was lost again by the end. Read on levels,
    not single points: on a noisy loss the first point alone can be a low draw (a 40-step
    linear fit on random targets started at 0.135 where its first five steps' median was
    0.37, and read as "no progress") and the raw minimum is the luckiest batch, not the
    best level the run reached. The start is the higher of the first point (the loss at
    the initialisation, which a blow-up on the first update leaves far below the rest) and
    the median of the first window; "no progress" needs both to say so. The best is the
    lowest median of as many consecutive points as the last level (the last fifth) has."""
    from ..util import smooth_window, trailing_median

    v = np.asarray(f.loss, float)
    w = smooth_window(len(v))
    head = float(np.median(v[:w]))
    drop_head = (head - f.loss_last) / max(abs(head), 1e-12)
    progress = max(f.rel_drop0, drop_head)
    n = max(w, len(v) // 5)  # the last level is a median of the last fifth: the best, of as many points
    best = float(np.min(trailing_median(v, n)[n - 1:]))
    start = max(float(v[0]), head)
    regress = (f.loss_last - best) / max(start - best, 1e-12)
    return progress, regress


def _confidence(run, f, s: float, worse: bool) -> float:
    from .data_outlier import extreme_targets

    c = min(0.85, 0.5 * s) * (1.0 if high_for(f, run) else 0.8)
    if calm_jump(f, run) is not None and f.first_bad is not None:
        c *= 0.5  # one batch blew a calm run up: an extreme sample (data-outlier)
    if outlier_batches(run) is not None or extreme_targets(run):
        c *= 0.5  # the spikes began on batches with an extreme input, or targets that extreme (data-outlier)
    scale = input_scale(run, before=f.first_bad)
    if np.isfinite(scale) and scale > 100:
        c *= 0.5  # the input scale explains the blow-up better (data-unnormalized)
    if sum_evidence(run, f):
        c *= 0.5  # a summed loss explains the size of the steps better (loss-reduction)
    if worse and _stale_grads(run):
        c *= 0.5  # gradients never cleared add up into steps too large (missing-zero-grad)
    return c


def _killed_story(f, k: dict) -> str:
    layer = k["series"][len("act/"):-len("/dead")]
    return (f"the ReLUs of {layer} were alive at the start ({k['alive_at_start']:.0%} silent) and 90 %+ dead from step "
            f"{k['dead_from_step']}, while each step moved the weights by {k['update_ratio_while_dying']} of their norm "
            f"(median; healthy ~1e-3); the loss went from {fmt(f.loss_first)} to {fmt(f.loss_last)}: steps that large "
            "push units below zero for good (dead-relu is the same death, seen from the layer)")


def _rise_story(f, rise: dict, evid: list) -> str:
    eu = next(e["early_max"] for e in evid if "early_max" in e)
    return (f"the loss rose to {rise['early_peak_over_first']}x its start ({fmt(f.loss_first)}) within the first "
            f"steps, while each step moved the weights by up to {eu} of their norm: the steps overshoot (a small "
            f"enough one lowers the loss); the run ended at {fmt(f.loss_last)}, never back to half its start")


def _story(f, grow: float, only_schedule: bool, gross: dict | None, worse: tuple | None,
           early: str | None = None) -> str:
    """What the evidence says, after "the learning rate ... is too high: "."""
    ur = f.update_ratio
    if early is not None and f.first_bad is None:
        up = early_blowup(f)
        return (f"the first updates moved the weights by up to {early} of their norm (healthy: 1e-3 to 1e-1), "
                f"rewriting what the initialisation set up; the loss went from {fmt(f.loss_first)} to "
                f"{fmt(f.loss_last)} (min {fmt(f.loss_min)}" + (f"; {fmt(up)}x its start within the first steps)"
                                                              if up >= 10 else ")"))
    if f.first_bad is not None:
        if only_schedule:
            return (f"it rose {fmt(grow)}x during the run (a warmup or schedule) before the loss went non-finite at "
                    f"step {f.first_bad}, with no climb of the loss before it")
        return f"the loss climbed before going non-finite at step {f.first_bad}"
    if gross is not None:
        return (f"{gross['series']} blew up from {fmt(gross['best'])} at step {gross['best_step']} to "
                f"{fmt(gross['last'])} at step {gross['last_step']} while each step moved the weights by {fmt(ur)} "
                "of their norm (median)")
    if worse is not None:
        return (f"the loss was worse than guessing uniformly among {worse[2]} classes (above ln C = "
                f"{fmt(worse[1])}) in {worse[0]:.0%} of the run after it had been below it (perplexity above the "
                "number of classes): the updates are too large to settle")
    if np.isfinite(ur):
        return (f"the loss went from {fmt(f.loss_first)} to {fmt(f.loss_last)} (min {fmt(f.loss_min)}) while each "
                f"update moved the weights by {fmt(ur)} of their norm")
    return (f"the loss rose from {fmt(f.loss_first)} to {fmt(f.loss_last)} (min {fmt(f.loss_min)}) at that rate; "
            "the log has no update sizes, so a summed loss or uncleared gradients would look the same")


def _stale_grads(run) -> bool:
    measured = carried_grads(run)
    return measured is not None and bool(measured[0])


def worse_than_uniform(run, f) -> tuple[float, float, int] | None:
    """For a cross-entropy/NLL loss over C classes (C from the logits the loss was given;
    its values from ``loss/ce``, the mean of the step's cross_entropy/nll_loss outputs):
    the share of 5 %-windows, after the first tenth of the run and after the loss first went
    under ln C, whose mean loss is above 1.05 ln C (worse than a uniform guess), when that
    share is 25 % or more; else None. Window means keep the spikes that make up the
    excursion; a run stuck at the label entropy (<= ln C) never gets there."""
    from ..util import smooth_window

    classes = 0
    for name in ("cross_entropy", "nll_loss"):
        desc = run.meta.get(f"loss_function/{name}") or {}
        shape = (desc.get("input") or {}).get("shape") if isinstance(desc, dict) else None
        if isinstance(shape, list) and len(shape) >= 2 and all(isinstance(d, int) for d in shape):
            classes = max(classes, shape[1] if len(shape) > 2 else shape[-1])
    rank = focus_rank(run)
    if classes < 2 or not run.has("loss/ce", rank):
        return None  # the cross-entropy's own values (the backpropagated loss may add a KL, a second head)
    v = np.asarray(run.series("loss/ce", rank).values, float)
    if len(v) < 50 or not np.isfinite(v).all():
        return None
    lnc = float(np.log(classes))
    below = np.nonzero(v < lnc)[0]
    if not len(below):
        return None  # never under ln C: a start far above it (init) falling slowly
    w = smooth_window(len(v))
    start = max(int(below[0]) + 1, len(v) // 10)
    means = [float(v[i:i + w].mean()) for i in range(start, len(v) - w + 1, w)]
    if len(means) < 4:
        return None
    frac = float(np.mean([m > 1.05 * lnc for m in means]))
    return (frac, lnc, classes) if frac >= 0.25 else None


def _running_median(v: np.ndarray) -> np.ndarray:
    from ..util import smooth_window, trailing_median

    w = smooth_window(len(v))
    return trailing_median(np.asarray(v, float), w)[w - 1:]

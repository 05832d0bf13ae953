"""exploding-gradient (TD703)."""

from __future__ import annotations

import math

import numpy as np

from .. import rule
from ..evidence import calm_jump, ended_well, features, finding, focus_rank, lr_growth, module_order, onset
from ..evidence.inputs import outlier_batches, raw_inputs
from ..evidence.policy import UNSEEN_CAP
from ..util import fmt, trailing_robust_z

_RECURRENT = ("RNN", "LSTM", "GRU")


def _peak(run) -> dict:
    g = run.series("grad_norm", focus_rank(run))
    v = np.where(np.isfinite(g.values), g.values, -np.inf)
    return {"step": int(g.steps[int(np.argmax(v))])} if len(v) else {}


@rule("exploding-gradient", needs=("grad_norm",))
def exploding_gradient(run):
    """What it detects: a gradient norm that jumps by orders of magnitude: steps whose
    norm is more than 30x the run's median, recurring, or a norm that grows 100x before
    the loss goes non-finite; more likely in recurrent nets and deep nets without
    normalisation, and when no gradient clipping is recorded. A run that came through (finite,
    its loss ending under a tenth of its start) keeps it a warning: a risk, not a failure.

    Why it happens: backpropagation multiplies by each layer's (or each time step's)
    Jacobian; gains above 1 compound (recurrent weights with a spectral radius above 1,
    deep plain nets, residual streams without normalisation).

    How to confirm: log the gradient norm per layer (traindoc records grad_norm/*): the
    spikes start in the recurrent/deep part; rerun with clip_grad_norm_(params, 1.0): the
    run stabilises.

    How to fix: clip the gradient norm (torch.nn.utils.clip_grad_norm_), add
    normalisation (LayerNorm), use gated recurrent units (LSTM/GRU), initialise recurrent
    weights orthogonally with gain <= 1, lower the learning rate.
    """
    f = features(run)
    g = f.grad
    if not len(g) or not math.isfinite(f.grad_med) or f.grad_med <= 0:
        return []
    clipped = clip_bites(run)
    order = module_order(run)
    recurrent = any(c.startswith(_RECURRENT) for _, c in order) or _repeated(run)
    first = _first_update(run, f) if recurrent and not clipped else None
    runaway = _runaway(run, f) if recurrent and not clipped else None
    early_break = f.first_bad is not None and onset(f).get("grad_growth", 1.0) >= 100
    if len(g) < 10 and first is None and runaway is None and not early_break:
        return []
    spikes = _spikes(g) if len(g) >= 10 else 0
    deep = sum(c.startswith(("Linear", "Conv")) for _, c in order) >= 10  # deep nets compound gains too
    s = _strength(run, f, spikes) if len(g) >= 10 else (1.0 if early_break else 0.0)
    rnn_jump = recurrent and not clipped and (_jump(run, f) or first is not None)
    if rnn_jump:
        s = max(s, 1.0 + 0.15 * math.log10(max(f.grad_max / f.grad_med, 1.0)))
    if runaway is not None:
        s = max(s, 1.0)
    if s == 0.0:
        return []
    c = min(0.9, 0.45 * s * (1.3 if recurrent or deep else 1.0)) * (0.5 if clipped else 1.0)
    survived = ended_well(f) and c > UNSEEN_CAP
    if survived:  # the spikes cost some steps, the run still came through: a risk, not a failure
        c = UNSEEN_CAP
    return [finding(
        "exploding-gradient", min(_explained_elsewhere(run, f, c, rnn_jump), 0.9),
        (_runaway_message(f, runaway) if runaway is not None and spikes == 0 and not rnn_jump else
         f"the gradient norm grew {fmt(onset(f)['grad_growth'])}x in the {len(g)} step(s) before the loss went "
         f"non-finite at step {f.first_bad} ({fmt(float(g[0]))} -> {fmt(f.grad_max)})"
         if early_break and len(g) < 10 and spikes == 0 and first is None else
         _message(run, f, spikes, first if spikes == 0 else None, rnn_jump and spikes == 0))
        + (" in a recurrent net" if recurrent else "") + _clip_note(run, clipped)
        + (f"; the run came through (its loss ended at {fmt(f.loss_last)} from {fmt(f.loss_first)}): a risk "
           "to fix, not the cause of a failure" if survived else ""),
        location=_peak(run) if f.first_bad is None else {"step": f.first_bad},
        evidence=[{"series": "grad_norm", "median": fmt(f.grad_med), "max": fmt(f.grad_max), "spikes_over_30x": spikes},
                  {"series": "grad_norm_preclip", "clipped": clipped}],
        fix=("use a bounded activation (tanh) inside the recurrence, or nn.LSTM/nn.GRU; " if runaway is not None else "")
        + "clip the gradient norm (torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)); add normalisation; "
          "for RNNs use LSTM/GRU and recurrent init with gain <= 1",
        confirm="rerun with clip_grad_norm_ at 1.0: the spikes and the instability go away",
    )]


def _repeated(run) -> bool:
    """A module one training step called 8 or more times (the ``repeated-modules`` event):
    a hand-written recurrence (an LSTM cell's Linear applied per time step) compounds its
    gain over the calls as nn.RNN does."""
    return any(e["kind"] == "repeated-modules" and isinstance(e.get("data"), dict)
               and any(isinstance(k, int) and k >= 8 for k in e["data"].values()) for e in run.events())


def _runaway(run, f) -> float | None:
    """|x| the inputs of the op that first overflowed had reached, when the replay of the
    first non-finite step found weights on which other batches overflow too (``bad-state``)
    and those inputs had run away (|x| > 1e15, no O(1) layer makes that in one call): the
    recurrence's gain grew above 1 over the updates and a forward pass through it
    compounded to overflow, with calm gradients before (bench/real 344: a ReLU LSTM cell,
    gradient norm ~1 until its forward made 3.7e19). None otherwise."""
    import json

    from ..evidence.bundles import forensics_files

    if f.first_bad is None:
        return None
    for path in forensics_files(run):
        try:
            d = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        tri, loc = d.get("triage") or {}, d.get("location") or {}
        c = loc.get("culprit") or {}
        big = max((float(i.get("absmax") or 0.0) for i in c.get("inputs", []) if isinstance(i, dict)), default=0.0)
        if d.get("step") == f.first_bad and tri.get("verdict") == "bad-state" and big > 1e15:
            return big
    return None


def _runaway_message(f, big: float) -> str:
    return (f"a forward pass through the recurrence ran away at step {f.first_bad}: an op's inputs reached |x| "
            f"{big:.3g} from weights on which other batches overflow too, with gradient norms of ~{fmt(f.grad_med)} "
            "before: the recurrent gain grew above 1 and compounds over the time steps (an unbounded activation "
            "such as ReLU in the recurrence has nothing to stop it)")


def _clip_note(run, clipped: bool) -> str:
    if clipped:
        return ""
    if run.has("grad_norm_preclip", focus_rank(run)):
        return ", and clip_grad_norm_ is called but never shortened a gradient (its max_norm is above every norm)"
    return ", and no gradient clipping was recorded"


def clip_bites(run) -> bool:
    """Whether the script's clip_grad_norm_ ever shortened a gradient: some step stepped
    with a norm below 0.9x the one clip_grad_norm_ returned. A clip at max_norm=inf (or
    at a norm no step reaches) is called but clips nothing, and does not stop an
    explosion (bench/real 339 clips at inf to log the norm: its 2172 spike was stepped
    whole). With its max_norm recorded (the ``clip`` meta), whether a returned norm exceeded
    it; else the norm stepped against the one returned; without the post-clip series (an
    imported log) a recorded clip counts."""
    rank = focus_rank(run)
    pre = run.series("grad_norm_preclip", rank)
    if pre.empty:
        return False
    clip = run.meta.get("clip")
    try:  # (the meta writes inf as "inf")
        max_norm = float(clip["max_norm"]) if isinstance(clip, dict) else None
    except (KeyError, TypeError, ValueError):
        max_norm = None
    if max_norm is not None and not math.isnan(max_norm):
        # the threshold is known: a clip bites when a norm it returned is above it (the norm
        # stepped may cover other tensors than the clipped ones, so no comparison of the two)
        v = pre.values[np.isfinite(pre.values)]
        return bool(np.any(v > max_norm))
    post = run.series("grad_norm", rank)
    if post.empty:
        return True
    common, i, j = np.intersect1d(pre.steps, post.steps, return_indices=True)
    a, b = post.values[j], pre.values[i]
    ok = np.isfinite(a) & np.isfinite(b)
    return bool(np.any(a[ok] < 0.9 * b[ok]))


def _spikes(g: np.ndarray) -> int:
    """Steps whose gradient norm is 30x its trailing median (a gradient that decays from
    large initial values as the loss falls is not an explosion; z in log space so that the
    scale cancels) and above twice the first gradients (a converged run's tiny, noisy
    gradients jump by orders of magnitude without anything exploding). The first gradients
    are the median of steps 0-9, or of steps 10-49 where that is lower: a run whose very
    first steps exploded (a norm in the millions) must not hide its later spikes behind them."""
    lg = np.log10(np.maximum(g, 1e-30))
    z, med, _ = trailing_robust_z(lg, 50, 10)
    rise = lg - np.nan_to_num(med, nan=np.inf)
    # z > 6, or z > 3 for a 100x rise: an earlier spike in the trailing window widens its
    # spread, and a second, larger one then reads z 3.6 (bench/real 339: 1437 at step 10,
    # 2172 at step 20, 500x the trailing median)
    up = (rise > np.log10(30)) & ((z > 6) | ((rise > 2) & (z > 3)))
    early = float(np.median(g[:10]))
    if len(g) >= 50:
        early = min(early, float(np.median(g[10:50])))
    return int(np.sum(up & (g > 2 * early)))


def _message(run, f, spikes: int, first: float | None, jump: bool) -> str:
    g = f.grad
    if first is not None:
        return (f"the first gradient was enormous (norm {fmt(float(g[0]))}): the first update, at a usual learning "
                f"rate ({fmt(f.lr)}), moved the weights by {first:.0%} of their size and the loss went non-finite at "
                f"step {f.first_bad}")
    return (f"the gradient norm jumps by orders of magnitude: max {fmt(f.grad_max)} against a median of "
            f"{fmt(f.grad_med)}" + (f", {fmt(float(g[0]))} at the first step" if g[0] > 100 * f.grad_med else "")
            + (f" (step {_peak(run).get('step')} at {f.grad_max / max(float(g[0]), 1e-30):.3g}x the first step's norm)"
               if jump
               else f" ({spikes} step(s) above 30x the trailing median)"))


def _jump(run, f) -> bool:
    """One step's gradient norm 100x the first step's and the run's median, the loss
    finite, and the loss worse after it (the median of the ten steps after the peak 1.3x
    that of the ten before): backpropagation through time multiplied a gradient up in one
    step (Pascanu et al. 2013) and the update on it wrecked the weights, once (so the
    recurring-spikes test does not see it). A spike the run shrugs off is not this."""
    g = f.grad
    if f.first_bad is not None or not (f.grad_max >= 100 * max(float(g[0]), 1e-30) and f.grad_max >= 100 * f.grad_med):
        return False
    loss = run.series("loss", focus_rank(run)).values
    k = int(np.argmax(g))
    before, after = loss[max(0, k - 10):k], loss[k + 1:k + 11]
    return len(before) >= 3 and len(after) >= 3 and float(np.median(after)) >= 1.3 * float(np.median(before))


def _first_update(run, f) -> float | None:
    """The first update's size relative to the weights (``update_ratio`` at step 0) when it
    is 0.9 or more at a learning rate in its optimizer's usual range (a plain-gradient
    optimizer: SGD's step is lr * g, Adam's is not) and the loss went
    non-finite within five steps: the gradient itself was enormous (a ReLU recurrence
    started at the identity sums 120 steps of error signal), and one step wrecked the
    weights before any spike could recur."""
    from .lr_too_high import high_for
    from .lr_too_low import _ADAPTIVE

    if f.opt_class.startswith(_ADAPTIVE):
        return None  # Adam's first update is about lr * sign(g) whatever the gradient's size
    u = run.series("update_ratio", focus_rank(run))
    if u.empty or int(u.steps[0]) != 0 or not u.values[0] >= 0.9 or high_for(f, run):
        return None
    return float(u.values[0]) if f.first_bad is not None and f.first_bad <= 5 else None


def _strength(run, f, spikes: int) -> float:
    """The evidence, 1.0 at the threshold, 0.0 when none: recurring spikes, a norm that grew
    100x before the loss went non-finite, or a first gradient that exploded at init."""
    g = f.grad
    s = 0.0
    if spikes >= 2:
        s = 1.0 + 0.15 * math.log10(max(f.grad_max / f.grad_med, 1)) + 0.05 * min(spikes, 10)
    if f.first_bad is not None and onset(f).get("grad_growth", 1.0) >= 100:
        s = max(s, 1.0)
    g_late = float(np.median(g[len(g) // 4:]))
    g0 = float(g[0])
    loss = run.series("loss", focus_rank(run)).values
    loss = loss[np.isfinite(loss)]
    l_fall = (float(loss[0]) / max(float(np.median(loss[len(loss) // 4:])), 1e-30)) if len(loss) >= 10 else 1.0
    if g0 > 1000 * max(g_late, 1e-30) and l_fall < 10 and g0 > 1.0:
        # the very first gradient is 1000x what the run later sees while the loss hardly
        # fell: it exploded at init (gradients that shrink with a falling loss converge;
        # a regression driven to zero loss has 1e5x smaller gradients at the end); and large
        # itself: a first norm of 0.005 that falls to 4e-6 with the loss stuck at ln 3 is a
        # gradient vanishing through tiny weights (bench/real 350), nothing exploded
        s = max(s, 1.2 + 0.1 * math.log10(g0 / max(g_late, 1e-30) / 1000))
    return s


def _explained_elsewhere(run, f, c: float, rnn_jump: bool = False) -> float:
    """The confidence ``c`` lowered for each cause whose own evidence explains large
    gradients first: the inputs, a summed loss, the learning rate, one extreme batch. A
    rate above the optimizer's usual range does not explain an unclipped recurrent net's
    jump (``rnn_jump``): such nets are trained at those rates (SGD at 1-5 for a char-RNN)
    with clipping, which is the missing piece; a rate that grew during the run still does."""
    from .loss_reduction import sum_evidence
    from .lr_too_high import high_for, input_scale
    from .data_outlier import extreme_targets
    from .saturated_activation import output_saturated

    if input_scale(run, before=f.first_bad) > 100 or raw_inputs(run) is not None:
        c *= 0.5  # huge inputs give huge gradients: data-unnormalized explains them
    if sum_evidence(run, f):
        c *= 0.5  # a summed loss explains the size of the gradients (loss-reduction)
    if (high_for(f, run) and not rnn_jump) or lr_growth(run, upto=f.first_bad) >= 5:
        c *= 0.6  # the learning rate is out of range: it explains the blow-up first (lr-too-high)
    if calm_jump(f, run) is not None:
        c *= 0.5  # one batch blew a calm run up: an extreme sample (data-outlier)
    if outlier_batches(run) is not None or extreme_targets(run):
        c *= 0.5  # the spikes began on batches with an extreme input, or targets that extreme (data-outlier)
    if output_saturated(run, f):
        c *= 0.4  # the output squashing pinned at +-1: gradients collapsed, they did not explode
    return c

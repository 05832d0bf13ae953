"""Readings of a run's series that several cause rules share: the rank they speak of,
the sampled activations, how the run approached its first NaN, the first updates, the
learning-rate schedule, a lone loss jump, and the measured leftover gradients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .run_features import Features


def focus_rank(run) -> int:
    """The rank the cause rules speak of: the one that went non-finite first under DDP
    (``diagnose`` hands the rules a view focused on it), else the first."""
    return getattr(run, "focus_rank", run.ranks[0])


def sampled(run, prefix: str, rank: int | None = None) -> dict[str, Any]:
    """Series under ``prefix`` (e.g. "act/"), grouped: {"<module>": {"<stat>": Series}}
    for act/, or {"<param>": Series} for the per-parameter prefixes."""
    rank = focus_rank(run) if rank is None else rank
    m = run.matching(prefix, rank)
    if prefix != "act/":
        return m
    out: dict[str, dict[str, Any]] = {}
    for k, v in m.items():
        mod, _, stat = k.rpartition("/")
        out.setdefault(mod, {})[stat] = v
    return out


def act_stat(run, stat: str, rank: int | None = None, before: int | None = None) -> dict[str, np.ndarray]:
    """Per module, the finite values of activation statistic ``stat`` on the sampled
    steps (before step ``before`` when given: after a NaN the statistics are noise)."""
    out = {}
    for mod, st in sampled(run, "act/", rank).items():
        s = st.get(stat)
        if s is None or s.empty:
            continue
        keep = np.isfinite(s.values)
        mean = st.get("mean")
        if mean is not None and len(mean.values) == len(s.values):
            keep &= np.isfinite(mean.values)
        if before is not None:
            keep &= s.steps < before
        if keep.any():
            out[mod] = s.values[keep]
    return out


def onset(f: Features) -> dict[str, float]:
    """How the run approached its first non-finite loss: growth of the loss and of the
    gradient norm over the steps before it, relative to the run's earlier values."""
    if f.first_bad is None:
        return {}
    v = f.loss
    g = f.grad
    out = {"steps_before": float(len(v))}
    # from three finite steps on: a run that broke at step 3 (0.9 -> 89 -> 6e12 -> NaN) grew,
    # it was not calm; with fewer than four the first step is the baseline. From two only
    # when a million-fold (438 -> 1.7e17: 194): two per-sample losses differ 3x, even 1000x,
    # by nature, not that much
    for key, s, scale in (("loss_growth", v, abs), ("grad_growth", g, float)):
        if len(s) < 2:
            continue
        early = float(np.median(s[: max(2, len(s) // 4)])) if len(s) >= 4 else float(s[0])
        growth = float(np.max(s[-3:])) / max(scale(early), 1e-12)
        if len(s) >= 3 or growth >= 1e6:
            out[key] = growth
    return out


def early_update(run, rank: int | None = None) -> float:
    """The largest update/weight ratio over the first three sampled steps: a learning
    rate far too high shows here (0.3..1: each step rewrites the weights) even when the
    run later settles into a dead, quiet state. Healthy runs: 1e-3..1e-1."""
    rank = focus_rank(run) if rank is None else rank
    u = run.series("update_ratio", rank)
    if u.empty:
        return float("nan")
    v = u.values[:3]
    v = v[np.isfinite(v)]
    return float(np.max(v)) if len(v) else float("nan")


def lr_growth(run, upto: int | None = None, rank: int | None = None) -> float:
    """How much the learning rate of the first group grew from its first steps to step
    ``upto`` (or the end): a schedule that raises the LR shows as a ratio above 1."""
    rank = focus_rank(run) if rank is None else rank
    lrs = run.matching("lr/", rank)
    if not lrs:
        return float("nan")
    s = lrs[sorted(lrs)[0]]
    v = s.values if upto is None else s.values[s.steps <= upto]
    if len(v) < 2:
        return float("nan")
    base = float(np.median(v[: min(10, len(v))]))
    return float(np.max(v[-5:]) / base) if base > 0 else float("nan")


def spikes(values: np.ndarray, ratio: float, window: int = 10, least: int = 3) -> np.ndarray:
    """Where each value is more than ``ratio`` times the median of the (up to) ``window``
    values before it, with at least ``least`` of them (a boolean mask; one vectorised pass)."""
    import warnings

    v = np.asarray(values, dtype=float)
    if not len(v):
        return np.zeros(0, dtype=bool)
    windows = np.lib.stride_tricks.sliding_window_view(np.concatenate([np.full(window, np.nan), v]), window)[:-1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the first values' all-NaN windows
        before = np.nanmedian(windows, axis=1)
    return (np.arange(len(v)) >= least) & (v > ratio * np.maximum(before, 1e-12))


def calm_jump(f: Features, run=None) -> int | None:
    """Index into ``f.loss`` of a sudden jump (20x the trailing median, robust z > 50,
    10x the step before) after at least 10 calm steps (within 3x of their median), at a
    learning rate that did not just rise, or None. One batch doing this to a calm run
    is the signature of an extreme sample, not of a learning rate or of depth."""
    from ..util import trailing_robust_z

    v = f.loss
    if len(v) < 12:
        return None
    if run is not None and early_update(run) > 0.3:
        return None  # the first updates already rewrote the weights: not a calm run
    z, med, _ = trailing_robust_z(v, 50, 10)
    prev = np.concatenate([[np.inf], v[:-1]])
    big = (z > 50) & (v > 20 * np.abs(med)) & (v > 10 * np.abs(prev))  # sudden: 10x in one step
    if not big.any():
        return None
    i = int(np.argmax(big))
    if i < 10:
        return None
    before = v[i - 10:i]
    if np.max(np.abs(before)) > 3 * abs(float(np.median(before))):
        return None
    gi = f.grad[max(0, i - 10):i] if len(f.grad) >= i else np.zeros(0)
    if len(gi) >= 5 and np.max(gi) > 4 * float(np.median(gi)):
        return None  # the gradient norm was already jumping around: not a calm run
    if run is not None and lr_growth(run, upto=int(f.loss_steps[i])) > 3:
        return None  # the learning rate rose before the jump
    return i


def carried_grads(run) -> tuple[list[tuple[int, float, float]], int] | None:
    """What ``.grad`` held when backward() began, where the monitor measured it
    (``grad_carried`` against the step's own gradient, ``grad_carried_ref``, on sampled
    steps): (the sampled steps whose .grad still held more than 5 % of a gradient, as
    (step, norm before, norm after); the number of sampled steps), or None when not
    measured. The list is empty when fewer than 60 % (or fewer than 2) of the sampled
    steps were stale: the gradients are cleared. After a change of the step clock (a second
    phase with its own optimizer), the steps of the last phase only."""
    rank = focus_rank(run)
    if not (run.has("grad_carried", rank) and run.has("grad_carried_ref", rank)):
        return None
    c, r = run.series("grad_carried", rank), run.series("grad_carried_ref", rank)
    ref = dict(zip(c.steps.tolist(), r.values.tolist())) if len(r.steps) == len(c.steps) else {}
    pairs = [(int(t), float(x), ref.get(int(t), float("nan"))) for t, x in zip(c.steps, c.values)]
    pairs = [(t, x, y) for t, x, y in pairs if np.isfinite(x) and np.isfinite(y) and y > 0]
    # a second phase with its own optimizer (pre-train, then fine-tune) is its own loop:
    # judged from the step its optimizer took the clock (event step-clock)
    handover = max((e["step"] for e in run.events() if e["kind"] == "step-clock" and e.get("rank", rank) == rank
                    and isinstance(e.get("step"), int)), default=None)
    if handover is not None and sum(t >= handover for t, _, _ in pairs) >= 2:
        pairs = [p for p in pairs if p[0] >= handover]
    if len(pairs) < 2:
        return None
    stale = [(t, x, y) for t, x, y in pairs if x > 0.05 * y]
    if len(stale) < max(2, 0.6 * len(pairs)):
        return [], len(pairs)  # .grad was empty when backward began: the gradients are cleared
    return stale, len(pairs)


def early_blowup(f) -> float:
    """The highest loss of the first tenth of the run (at least 10 steps) over the first
    loss: 1 when it only fell. Only for a positive loss."""
    x = np.asarray(f.loss, float)
    k = max(10, len(x) // 10)
    head = x[:k][np.isfinite(x[:k])]
    if not head.size or not np.isfinite(x[0]) or x[0] <= 0 or f.loss_min < 0:
        return 1.0
    return float(head.max() / x[0])


def early_rise(f) -> float:
    """The highest median of three consecutive losses in the first tenth of the run (at
    least 10 steps) over the start: the first loss (the untrained model's) on a smooth loss
    (step-to-step noise under a tenth of its level, full-batch), else the higher of it and
    the first such median (a minibatch loss's first value can be a low draw). 1 when the
    loss only fell, on a run too short, non-finite or with a negative loss."""
    x = np.asarray(f.loss, float)
    head = x[: max(10, len(x) // 10)]
    if len(x) < 10 or not np.isfinite(head).all() or x[0] <= 0 or f.loss_min < 0:
        return 1.0
    med3 = np.median(np.lib.stride_tricks.sliding_window_view(head, 3), axis=1)
    smooth = np.isfinite(f.noise) and f.noise < 0.1
    return float(med3.max() / (x[0] if smooth else max(x[0], med3[0])))


def ended_well(f) -> bool:
    """The run came through: no non-finite loss, and the median of its last fifth is under a
    tenth of where it started (a positive loss). Spikes it had were survived, not fatal: an
    LSTM trained with RMSprop and no clipping (NYU-DLSP20's notebook) spikes its gradient 100x
    and its loss to 3.9 a few times and ends at 0.05 from 1.39, 99.8 % accuracy."""
    return (f.first_bad is None and np.isfinite(f.loss_first) and np.isfinite(f.loss_last)
            and f.loss_first > 0 and f.loss_min >= 0 and f.loss_last <= 0.1 * f.loss_first)

"""The facts about a run that several cause rules share, computed once per run.

Every cause rule reads the same small set of facts (how the loss moved, how the
gradients and updates behaved, the batch, the labels, the precision), so they are
computed here once and cached on the run object. Pure: a function of the run's series,
events and metadata only. Cost: one pass over the series, a few milliseconds for a run
of 10 000 steps.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .series import focus_rank


@dataclass
class Features:
    steps: int = 0
    loss_steps: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    loss: np.ndarray = field(default_factory=lambda: np.zeros(0))
    first_bad: int | None = None          # first step whose loss is non-finite (not a skipped fp16 step)
    grad_bad_first: int | None = None     # first step with a non-finite gradient (not a skipped fp16 step)
    grad_steps_values: tuple | None = None  # (steps, values) of the finite global gradient norm
    loss_first: float = float("nan")      # median of the first few finite losses
    loss_last: float = float("nan")       # median of the last fifth
    loss_min: float = float("nan")
    rel_drop: float = float("nan")        # (first - last) / |first|
    rel_drop0: float = float("nan")       # (loss at step 0 - last) / |loss at step 0|: progress from init
    noise: float = float("nan")           # median |diff| of the last half / |median| (step-to-step roughness)
    grad: np.ndarray = field(default_factory=lambda: np.zeros(0))
    grad_first: float = float("nan")
    grad_med: float = float("nan")
    grad_max: float = float("nan")
    update_ratio: float = float("nan")    # median over sampled steps (after the first) of the global ratio
    lr: float = float("nan")              # median learning rate of the primary group
    opt_class: str = ""
    batch: float = float("nan")           # median samples per step (batch indices)
    labels: dict[int, float] = field(default_factory=dict)  # label histogram over the run
    prior_entropy: float = float("nan")   # entropy of the label histogram (nats)
    n_classes: int = 0
    multilabel: dict[str, Any] = field(default_factory=dict)  # the labels-multi event's data (multi-label BCE)
    dtypes: set[str] = field(default_factory=set)
    scaler: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


# The cache lives on the run object (its __dict__: a RankView has its own), so it goes
# away with the run; keyed by rank.
_CACHE_ATTR = "_traindoc_cause_features"


def features(run, rank: int | None = None) -> Features:
    """The shared features of ``run`` (the focus rank unless given), computed once per run."""
    rank = focus_rank(run) if rank is None else rank
    cache = run.__dict__.setdefault(_CACHE_ATTR, {})
    if rank not in cache:
        cache[rank] = _compute(run, rank)
    return cache[rank]


def cached(run, key: str, compute):
    """``compute(run)`` once per run, kept with the features (for the shared verdicts
    several rules read, such as the input scale)."""
    cache = run.__dict__.setdefault(_CACHE_ATTR + "_" + key, {})
    if "v" not in cache:
        cache["v"] = None  # set first: a computation that raises fails one rule, not each that asks
        cache["v"] = compute(run)
    return cache["v"]


def _median(x: np.ndarray) -> float:
    x = x[np.isfinite(x)]
    return float(np.median(x)) if len(x) else float("nan")


def _compute(run, rank: int) -> Features:
    f = Features()
    s = run.series("loss", rank)
    skipped = run.series("scaler/skipped", rank)
    skip = set(skipped.steps[skipped.values > 0].tolist()) if not skipped.empty else set()
    f.steps = int(run.meta.get("steps") or (int(s.steps[-1]) + 1 if not s.empty else 0))
    if not s.empty:
        _loss(f, run, rank, s, skip)
    _gradients(f, run, rank, skip)
    _optimizer(f, run, rank)
    _batch(f, run, rank, s)
    _labels(f, run, rank)
    for key, m in run.meta.items():
        if key.startswith("model/") and isinstance(m, dict):
            f.dtypes.update(m.get("dtypes", []))
    f.scaler = run.has("scaler/scale", rank)
    return f


def _loss(f: Features, run, rank: int, s, skip: set[int]) -> None:
    """The finite loss before its first non-finite (or script-skipped) step, and its shape."""
    keep = np.array([int(t) not in skip for t in s.steps], bool)
    st, v = s.steps[keep], s.values[keep]
    bad = ~np.isfinite(v)
    guarded = run.series("loss/skipped", rank)  # a NaN the script's own check skipped
    first_guarded = int(guarded.steps[0]) if not guarded.empty else None
    if bad.any() or first_guarded is not None:
        f.first_bad = min(x for x in (int(st[bad][0]) if bad.any() else None, first_guarded) if x is not None)
        good = ~bad & (st < f.first_bad)
        st, v = st[good], v[good]
    f.loss_steps, f.loss = st, v
    if not len(v):
        return
    k = max(1, min(5, len(v) // 20))
    f.loss_first = float(np.median(v[:k]))
    tail = v[-max(1, len(v) // 5):]
    f.loss_last = float(np.median(tail))
    f.loss_min = float(np.min(v))
    f.rel_drop = (f.loss_first - f.loss_last) / max(abs(f.loss_first), 1e-12)
    f.rel_drop0 = (float(v[0]) - f.loss_last) / max(abs(float(v[0])), 1e-12)
    half = v[len(v) // 2:]
    if len(half) > 3:
        f.noise = float(np.median(np.abs(np.diff(half))) / max(abs(np.median(half)), 1e-12))


def _gradients(f: Features, run, rank: int, skip: set[int]) -> None:
    """The first non-finite gradient, the finite global norm, and the update sizes."""
    gnf = run.series("grad_nonfinite", rank)
    if not gnf.empty:
        bad_g = [int(t) for t, x in zip(gnf.steps, gnf.values) if x > 0 and int(t) not in skip]
        f.grad_bad_first = bad_g[0] if bad_g else None
    g = run.series("grad_norm", rank)
    f.extra["imported"] = run.meta.get("status") == "imported" or "import" in run.meta
    if not g.empty:
        fin = np.isfinite(g.values)
        f.grad_steps_values = (g.steps[fin], g.values[fin])
        gv = g.values[fin]
        f.grad = gv
        if len(gv):
            f.grad_first = float(np.median(gv[: max(1, min(3, len(gv)))]))
            f.grad_med = float(np.median(gv))
            f.grad_max = float(np.max(gv))
    u = run.series("update_ratio", rank)
    if not u.empty:
        uv = u.values[1:] if len(u.values) > 1 else u.values
        f.update_ratio = _median(uv)


def _optimizer(f: Features, run, rank: int) -> None:
    lrs = run.matching("lr/", rank)
    if lrs:
        key = sorted(lrs)[0]
        f.lr = _median(lrs[key].values)
    opt = run.meta.get("optimizer/0") or {}
    f.opt_class = str(opt.get("class", ""))


def _batch(f: Features, run, rank: int, s) -> None:
    """The batch size, from the recorded indices of about 20 steps (reading them all
    would cost a query per step)."""
    sizes = []
    for t in (s.steps[:: max(1, len(s.steps) // 20)] if not s.empty else []):
        idx = run.batch_indices(int(t), rank)
        if idx is not None:
            sizes.append(len(idx))
    if sizes:
        f.batch = float(np.median(sizes))


def _labels(f: Features, run, rank: int) -> None:
    counts: dict[int, float] = {}
    for ev in run.events(rank):
        if ev["kind"] == "labels-multi" and isinstance(ev.get("data"), dict):
            f.multilabel = ev["data"]
        if ev["kind"] == "labels" and ev.get("data"):
            for k, c in (ev["data"].get("counts") or {}).items():
                counts[int(k)] = counts.get(int(k), 0.0) + float(c)
    if counts:
        f.labels = counts
        p = np.array(list(counts.values()), float)
        p = p / p.sum()
        f.prior_entropy = float(-(p[p > 0] * np.log(p[p > 0])).sum())
        f.n_classes = max(counts) + 1

"""Features of a run that several cause rules share, computed once per run.

Every cause rule reads the same small set of facts (how the loss moved, how the
gradients and updates behaved, what the sampled activations looked like, how the run
ended), so they are computed here once and cached on the run object. Pure: a function
of the run's series, events and metadata only. Cost: one pass over the series, a few
milliseconds for a run of 10 000 steps.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...findings import ERROR, WARNING, Finding

# ---------------------------------------------------------------- small helpers


def conf(strength: float, mid: float = 1.0, slope: float = 4.0) -> float:
    """Map a rule's evidence strength (1.0 = at its threshold) to a probability-like
    confidence with a logistic curve. ``mid`` is where confidence is 0.5; the ranker
    scales the result per cause with the table it was calibrated on (see diagnose.py)."""
    if not math.isfinite(strength):
        return 0.99 if strength > 0 else 0.01
    return float(1.0 / (1.0 + math.exp(-slope * (math.log(max(strength, 1e-9)) - math.log(mid)))))


def focus_rank(run) -> int:
    """The rank the cause rules speak of: the one that went non-finite first under DDP
    (``diagnose`` hands the rules a view focused on it), else the first."""
    return getattr(run, "focus_rank", run.ranks[0])


def finding(name: str, confidence: float, message: str, *, location=None, evidence=None, fix="",
            confirm="") -> Finding:
    """A cause finding whose severity follows its confidence: error from 0.5 up."""
    confidence = float(min(0.99, max(0.01, confidence)))
    return Finding(name, ERROR if confidence >= 0.5 else WARNING, message, location=location or {},
                   evidence=evidence or [], fix=fix, confirm=confirm, confidence=confidence)


def median(x: np.ndarray) -> float:
    x = x[np.isfinite(x)]
    return float(np.median(x)) if len(x) else float("nan")


def q(x: np.ndarray, p: float) -> float:
    x = x[np.isfinite(x)]
    return float(np.quantile(x, p)) if len(x) else float("nan")


# ---------------------------------------------------------------- model structure

_PARAM_KIND = re.compile(r"\.(weight|bias|weight_ih_l\d+|weight_hh_l\d+|bias_ih_l\d+|bias_hh_l\d+|in_proj_weight|"
                         r"in_proj_bias)$")


def module_order(run) -> list[tuple[str, str]]:
    """(module name, class) of every module of every recorded model, in definition
    order (the order ``named_modules`` gave), which is the forward order for the usual
    Sequential/ModuleList models."""
    out = []
    for key, m in run.meta.items():
        if key.startswith("model/") and isinstance(m, dict):
            for row in m.get("modules", []):
                out.append((str(row[0]), str(row[1])))
    return out


def param_module(pname: str) -> str:
    return pname.rsplit(".", 1)[0] if "." in pname else ""


def weight_params(names: list[str], order: list[tuple[str, str]]) -> list[str]:
    """The weight matrices (not biases, not norms) among ``names`` in forward order."""
    pos = {n: i for i, (n, _) in enumerate(order)}
    cls = dict(order)
    keep = []
    for p in names:
        mod = param_module(p)
        leaf = p.rsplit(".", 1)[-1]
        if "bias" in leaf or "norm" in cls.get(mod, "").lower() or cls.get(mod, "").startswith("BatchNorm"):
            continue
        if "weight" in leaf or leaf in ("pos",):
            keep.append(p)
    return sorted(keep, key=lambda p: (pos.get(param_module(p), 10**6), p))


# ---------------------------------------------------------------- the features


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
    dtypes: set[str] = field(default_factory=set)
    scaler: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


_CACHE_ATTR = "_traindoc_cause_features"


def features(run, rank: int | None = None) -> Features:
    """The shared features of ``run`` (rank 0 unless given), computed once per run."""
    rank = focus_rank(run) if rank is None else rank
    cache = run.__dict__.setdefault(_CACHE_ATTR, {})
    if rank not in cache:
        cache[rank] = _compute(run, rank)
    return cache[rank]


def _compute(run, rank: int) -> Features:
    f = Features()
    s = run.series("loss", rank)
    skipped = run.series("scaler/skipped", rank)
    skip = set(skipped.steps[skipped.values > 0].tolist()) if not skipped.empty else set()
    f.steps = int(run.meta.get("steps") or (int(s.steps[-1]) + 1 if not s.empty else 0))
    if not s.empty:
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
        if len(v):
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
        f.update_ratio = median(uv)
    lrs = run.matching("lr/", rank)
    if lrs:
        key = sorted(lrs)[0]
        f.lr = median(lrs[key].values)
    opt = run.meta.get("optimizer/0") or {}
    f.opt_class = str(opt.get("class", ""))
    sizes = []
    for t in (s.steps[:: max(1, len(s.steps) // 20)] if not s.empty else []):
        idx = run.batch_indices(int(t), rank)
        if idx is not None:
            sizes.append(len(idx))
    if sizes:
        f.batch = float(np.median(sizes))
    counts: dict[int, float] = {}
    for ev in run.events(rank):
        if ev["kind"] == "labels" and ev.get("data"):
            for k, c in (ev["data"].get("counts") or {}).items():
                counts[int(k)] = counts.get(int(k), 0.0) + float(c)
    if counts:
        f.labels = counts
        p = np.array(list(counts.values()), float)
        p = p / p.sum()
        f.prior_entropy = float(-(p[p > 0] * np.log(p[p > 0])).sum())
        f.n_classes = max(counts) + 1
    for key, m in run.meta.items():
        if key.startswith("model/") and isinstance(m, dict):
            f.dtypes.update(m.get("dtypes", []))
    f.scaler = run.has("scaler/scale", rank)
    return f


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


def onset(f: Features) -> dict[str, float]:
    """How the run approached its first non-finite loss: growth of the loss and of the
    gradient norm over the steps before it, relative to the run's earlier values."""
    if f.first_bad is None:
        return {}
    v = f.loss
    g = f.grad
    out = {"steps_before": float(len(v))}
    if len(v) >= 4:
        early = float(np.median(v[: max(2, len(v) // 4)]))
        late = float(np.max(v[-3:]))
        out["loss_growth"] = late / max(abs(early), 1e-12)
    if len(g) >= 4:
        early = float(np.median(g[: max(2, len(g) // 4)]))
        late = float(np.max(g[-3:]))
        out["grad_growth"] = late / max(early, 1e-12)
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


def param_modules(run) -> list[tuple[str, str]]:
    """(module, class) of the modules that own parameters, in forward order: Linear,
    Conv, Embedding, RNN... (containers and parameter-free activations dropped)."""
    skip = ("ReLU", "ReLU6", "GELU", "SiLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Dropout", "Identity",
            "Flatten", "MaxPool", "AvgPool", "AdaptiveAvgPool", "LeakyReLU", "ELU", "Hardtanh", "Hardsigmoid")
    mods = module_order(run)
    names = [m for m, _ in mods]
    out = []
    for i, (m, c) in enumerate(mods):
        if c.startswith(skip):
            continue
        is_parent = any(n.startswith(m + ".") for n in names) if m else True
        if not is_parent:
            out.append((m, c))
    return out


def last_module_class(run) -> str:
    """The class of the last leaf module of the (first) model: Softmax/Sigmoid there
    means the model outputs probabilities, not logits."""
    mods = module_order(run)
    names = [m for m, _ in mods]
    leaves = [(m, c) for m, c in mods if not any(n.startswith(m + ".") for n in names if m) and m]
    return leaves[-1][1] if leaves else ""


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


def raw_inputs(run) -> tuple[str, float, float, float] | None:
    """Inputs far off unit scale, read from the first layer's output at the first sampled
    step (before any update): (first module, its |x|max, its std, a confidence), or None.
    |x|max above 100 or std above 20 where default-initialised layers give ~1, while deeper
    layers do not keep growing (a scale that grows with depth is the initialisation).
    Shared by data-unnormalized and the rules whose symptom such inputs produce downstream
    (saturated activations, dead ReLUs, vanishing gradients): the cause comes first."""
    cache = run.__dict__.setdefault(_CACHE_ATTR + "_raw", {})
    if "v" in cache:
        return cache["v"]
    cache["v"] = None
    f = features(run)
    mods = param_modules(run)
    am = act_stat(run, "absmax", before=f.first_bad)
    sd = act_stat(run, "std", before=f.first_bad)
    first = next((m for m, c in mods if m in am and not c.startswith("Embedding")), None)
    if first is None:
        return None
    a0, s0 = float(am[first][0]), float(sd[first][0]) if first in sd else float("nan")
    if not (a0 > 100 or (math.isfinite(s0) and s0 > 20)):
        return None
    later = [float(am[m][0]) for m, _ in mods if m in am and m != first]
    if later and max(later) / a0 > 3:
        return None  # the scale grows with depth: initialisation, not the inputs
    strength = max(a0 / 100, (s0 / 20) if math.isfinite(s0) else 0)
    cache["v"] = (first, a0, s0, min(0.9, 0.55 + 0.1 * math.log10(max(strength, 1))))
    return cache["v"]


def below_raw_inputs(run, c: float) -> tuple[float, str]:
    """A downstream symptom's confidence kept under data-unnormalized's when the inputs are
    raw (see raw_inputs), and the words that say so (empty when they are not)."""
    raw = raw_inputs(run)
    if raw is None:
        return c, ""
    return min(c, raw[3] - 0.05), (f"; the inputs reach the first layer ({raw[0]}) at |x|max {raw[1]:.3g}: "
                                    "unnormalised inputs are the likelier cause of this")

"""Whether the inputs reach the model far off unit scale: a cause (data-unnormalized)
whose symptoms other rules see downstream, so it is decided once, here."""

from __future__ import annotations

import math

import numpy as np

from .model import module_order, param_modules
from .run_features import cached, features
from .series import act_stat, focus_rank, spikes


def raw_inputs(run) -> tuple[str, float, float, float] | None:
    """Inputs far off unit scale, read from the first layer's output at the first sampled
    step (before any update): (first module, its |x|max, its std, a confidence), or None.
    |x|max above 100 or std above 20 where default-initialised layers give ~1, while deeper
    layers do not keep growing (a scale that grows with depth is the initialisation).
    Shared by data-unnormalized and the rules whose symptom such inputs produce downstream
    (saturated activations, dead ReLUs, vanishing gradients): the cause comes first."""
    return cached(run, "raw", _raw_inputs)


# Standardised features stay within a few units of 0 and pixels scaled to [0, 1] within 1;
# raw units (pixel values, years, prices, int16 audio) reach hundreds or more
SANE_INPUT = 20.0


def input_absmax(run) -> float:
    """The largest |value| of the model's float tensor arguments at the first sampled step
    (``in/absmax``; NaN when not recorded: an older run, or integer inputs only)."""
    s = run.series("in/absmax", focus_rank(run))
    ok = s.values[np.isfinite(s.values)] if not s.empty else s.values
    return first_draw(run, ok) if len(ok) else float("nan")


TINY_BATCH = 2  # samples a step: at most this, one step's inputs are a poor draw of their scale


def first_draw(run, values: np.ndarray) -> float:
    """The first sampled step's value, or, when that step drew at most TINY_BATCH samples
    (online SGD, a batch of 1; recorded batch indices needed: a DataLoader's), the largest
    of the first three sampled steps' (steps 0-2: always sampled): one or two
    samples are a poor draw of the inputs' scale (bench/real 334: pulse counts 0..600 whose
    first reading was 0.5; the next two were 110 and 339). The later two steps follow one
    or two updates, which move a layer's output far less than a 100x input does."""
    if not len(values):
        return float("nan")
    return float(np.max(values[:3])) if tiny_batches(run) else float(values[0])


def tiny_batches(run) -> bool:
    idx = run.batch_indices(0, focus_rank(run)) if hasattr(run, "batch_indices") else None
    return idx is not None and 0 < len(idx) <= TINY_BATCH


def scaled_to_draws(run, a0: float, s0: float) -> tuple[float, float]:
    """The first layer's |x|max at step 0 scaled to the inputs' first draws when a step
    draws at most TINY_BATCH samples: its gain before any update (output over input at
    step 0) times the largest input of the first three steps (read before the updates can
    blow the layer up: 334's layer output 1.3e5 at step 2 was the divergence's, not the
    data's). The std of one sample's output says nothing then (NaN)."""
    if not tiny_batches(run):
        return a0, s0
    s = run.series("in/absmax", focus_rank(run))
    ok = s.values[np.isfinite(s.values)] if not s.empty else s.values
    if not len(ok) or not ok[0] > 0:
        return a0, s0
    return a0 / float(ok[0]) * float(np.max(ok[:3])), float("nan")


def _raw_inputs(run) -> tuple[str, float, float, float] | None:
    f = features(run)
    if input_absmax(run) <= SANE_INPUT:
        # the inputs were read and are on a sane scale: a large first-layer output is that
        # layer's doing (a ReLU RNN summing its inputs over 120 steps, its init), not theirs
        return None
    mods = param_modules(run)
    am = act_stat(run, "absmax", before=f.first_bad)
    sd = act_stat(run, "std", before=f.first_bad)
    first = next((m for m, c in mods if m in am and not c.startswith("Embedding")), None)
    if first is None:
        return None
    a0, s0 = float(am[first][0]), float(sd[first][0]) if first in sd else float("nan")
    a0, s0 = scaled_to_draws(run, a0, s0)
    if not (a0 > 100 or (math.isfinite(s0) and s0 > 20)):
        return _saturated_lstm(run, mods, first, a0, s0) or _saturating_next(run, first, a0, s0)
    later = [float(am[m][0]) for m, _ in mods if m in am and m != first]
    if later and max(later) / a0 > 3:
        return None  # the scale grows with depth: initialisation, not the inputs
    strength = max(a0 / 100, (s0 / 20) if math.isfinite(s0) else 0)
    return first, a0, s0, min(0.9, 0.55 + 0.1 * math.log10(max(strength, 1)))


def _saturated_lstm(run, mods, first: str, a0: float, s0: float):
    """An LSTM first, whose output holds exact zeros in a fifth of its values at the first
    sampled step: h = o * tanh(c) is exactly 0 only where a gate's sigmoid underflowed
    (pre-activation below about -88) or the cell is exactly 0, which default-initialised
    weights (|w| <= 1/sqrt(hidden)) reach only from inputs in the hundreds or more. Its
    output is bounded by 1, so the |x|max test above cannot see such inputs."""
    cls = dict(mods).get(first, "")
    zero = act_stat(run, "zero", before=features(run).first_bad).get(first)
    if not cls.startswith("LSTM") or zero is None or not len(zero) or float(zero[0]) < 0.2:
        return None
    return first, a0, s0, 0.6


SAT_AT_INIT = 0.5  # the share of the activation's outputs pinned at its ends before any update


def _saturating_next(run, first: str, a0: float, s0: float):
    """Raw inputs (``in/absmax`` above SANE_INPUT) whose first layer's output, under the
    |x|max 100 / std 20 bars, feeds a sigmoid or tanh that is saturated on most of its outputs
    at the first sampled step: before any update, only the inputs' scale can pin it (with
    standardised inputs a fan-in-scaled init gives pre-activations of std ~1, the
    activation's linear range). Needs the first layer's std above 3 (sigmoid'(3) = 0.045).
    bench/real 443: x in [40, 50] (a StackExchange question), Linear(1, 8) then a sigmoid
    at 100 %, std 12.8: the network fits a constant."""
    if not (math.isfinite(s0) and s0 > 3):
        return None
    order = [m for m, _ in module_order(run)]
    nxt = order[order.index(first) + 1] if first in order and order.index(first) + 1 < len(order) else None
    sat = act_stat(run, "saturated", before=features(run).first_bad).get(nxt) if nxt is not None else None
    if sat is None or not len(sat) or not float(sat[0]) >= SAT_AT_INIT:
        return None
    return first, a0, s0, 0.6


def below_raw_inputs(run, c: float) -> tuple[float, str]:
    """A downstream symptom's confidence kept under data-unnormalized's when the inputs are
    raw (see raw_inputs), and the words that say so (empty when they are not)."""
    raw = raw_inputs(run)
    if raw is None:
        return c, ""
    return min(c, raw[3] - 0.05), (f"; the inputs reach the first layer ({raw[0]}) at |x|max {raw[1]:.3g}: "
                                    "unnormalised inputs are the likelier cause of this")


HEAVY = 3.0  # a batch whose largest input is 3x the typical batch's (standard normal batches of 32+: within 1.6x)
SPIKE = 10.0  # a gradient norm 10x the median of the ten steps before it


def outlier_batches(run) -> dict | None:
    """The gradient's spikes come with outsized batches: the largest |input| of each step
    (``in/absmax``, recorded every step) against the gradient norm. On a table standardised
    to a sane scale (the typical batch's |x|max at most SANE_INPUT), the steps whose batch
    holds an input 3x the typical one are "heavy"; a gradient spike's onset (10x the median
    of the ten steps before it, the step before not a spike) is where a run gets thrown.
    When the first onset and three quarters or more of them (two or more, before the run
    went non-finite) came on heavy steps, and heavy steps are at most half of all, the
    extreme rows are what threw it: a linear layer's weight gradient is the input times the
    backpropagated error, so a row 40x the others gives a step 40x (squared under MSE, whose
    error grows with it). ``chance`` is the binomial probability of as many onsets on heavy
    steps if onsets fell anywhere (bench/real 369: onsets at steps 7 and 18, both heavy,
    heavy share 0.35: 0.12). None without the every-step series (a run recorded before it
    was) or with fewer than 12 steps before the first non-finite one."""
    return cached(run, "outlier-batches", _outlier_batches)


def _outlier_batches(run) -> dict | None:
    f = features(run)
    s = run.series("in/absmax", focus_rank(run))
    if s.empty or f.grad_steps_values is None:
        return None
    end = f.first_bad if f.first_bad is not None else int(s.steps[-1]) + 1
    a = {int(k): float(v) for k, v in zip(s.steps, s.values) if k < end and np.isfinite(v)}
    gs, gv = f.grad_steps_values
    g = {int(k): float(v) for k, v in zip(gs, gv) if k < end}
    steps = sorted(set(a) & set(g))
    if len(steps) < 12 or len(a) < 0.8 * end:
        return None  # sampled steps only: the spikes' batches are not there to compare
    typical = float(np.median([a[k] for k in steps]))
    if not 0 < typical <= SANE_INPUT:
        return None  # raw inputs throughout: data-unnormalized's case, not a few rows'
    heavy = {k for k in steps if a[k] > HEAVY * typical}
    share = len(heavy) / len(steps)
    spike = spikes(np.array([g[k] for k in steps]), SPIKE)
    start = spike & ~np.concatenate([[False], spike[:-1]])
    onsets = [steps[i] for i in np.flatnonzero(start)]
    hits = sum(k in heavy for k in onsets)
    if len(onsets) < 2 or not 0 < share <= 0.5 or onsets[0] not in heavy or hits < 0.75 * len(onsets):
        return None
    n = len(onsets)
    chance = sum(math.comb(n, j) * share ** j * (1 - share) ** (n - j) for j in range(hits, n + 1))
    return {"onsets": onsets, "heavy": [k for k in onsets if k in heavy], "heavy_share": share,
            "typical": typical, "chance": chance, "sizes": [a[k] for k in onsets if k in heavy]}

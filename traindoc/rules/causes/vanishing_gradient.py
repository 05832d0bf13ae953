"""vanishing-gradient (TD702)."""

from __future__ import annotations

import re

import numpy as np

from .. import rule
from ..evidence import (below_raw_inputs, early_rise, features, finding, module_order, module_sizes,
                        raw_param_shapes, sampled, weight_params)
from ..util import fmt

_QK = re.compile(r"(^|\.)(query|key|q_proj|k_proj|to_q|to_k|wq|wk|w_q|w_k|w_qs|w_ks|q_lin|k_lin|q_linear|k_linear)"
                 r"\.weight$", re.IGNORECASE)


@rule("vanishing-gradient", needs=("grad_norm/",))
def vanishing_gradient(run):
    """What it detects: per-layer gradients that fall by more than 1000x from the last
    weight layer to the first (median over steps; per weight, the norm divided by the
    square root of the layer's size, so that a wide first layer is not read as a
    stronger one) across at least 4 weight layers:
    the early layers receive almost no learning signal. Or through time: a weighted module
    one forward calls 8+ times (a hand-written recurrent cell) whose first call gets a
    thousandth or less of the gradient its last call gets (`time_grad/<module>`, median
    over the last third of the sampled steps) while the loss falls by less than a fifth:
    the first time steps never learn (an LSTM cell with zero forget-gate bias halves the
    signal at each step; a healthy one that learns the dependency opens its gates and the
    ratio falls towards 1). Embeddings and attention's
    query/key projections are left out (their gradients follow token frequency and the
    attention's sharpness, not depth); a run whose loss fell by more than half gets a
    warning at most, and so does one whose loss ended above twice its start (units
    saturated by a blow-up go quiet: a consequence, not the cause), or one healthy at its
    first step (the ratio above 1e-2) whose loss doubled within the first steps (the
    updates, not the depth, took the gradient away: lr-too-high), or whose first weight gets no
    gradient while its own bias gets one (its input is 0 where the output is read: padding).

    Why it happens: saturating activations (sigmoid/tanh) in deep plain networks, an
    initialisation that shrinks the backward signal, no residual connections or
    normalisation.

    How to confirm: the grad_norm/<param> series, layer by layer (traindoc report
    draws them); the first layers' update ratios are orders of magnitude below the last.

    How to fix: ReLU-family activations, He/Kaiming init, residual connections,
    BatchNorm/LayerNorm; or a shallower network.
    """
    f = features(run)
    gn = sampled(run, "grad_norm/")
    through = _through_time(run, f)
    if through:
        return through
    order = module_order(run)
    emb = {m for m, c in order if c.startswith("Embedding")}
    # embeddings' gradients scale with token frequency, not with depth, and attention's
    # query/key projections' with how sharp the attention is (near 0 while it is uniform,
    # early in any transformer): left out
    raw = raw_param_shapes(run)  # raw tensors handed to the optimizer (a hand-written MLP)
    w = [p for p in weight_params(list(gn), order, raw) if p.rsplit(".", 1)[0] not in emb and not _QK.search(p)]
    if len(w) < 4:
        return []
    upto = len(f.loss) or None
    live = gn[w[-1]].values[:upto] > 0
    if 3 <= live.sum() < 0.5 * live.size:
        # the gradient died everywhere later (every unit of a late ReLU layer dead): read the
        # steps where the last layer still had one
        upto = None
    cut = lambda v: v[: len(f.loss) or None]  # noqa: E731
    med = {p: _median(cut(gn[p].values)[live] if upto is None and len(cut(gn[p].values)) == live.size
                      else gn[p].values[:upto]) for p in w}
    first, last = med[w[0]], med[w[-1]]
    if not (np.isfinite(first) and np.isfinite(last)) or last <= 0:
        return []
    # per weight (the norm over sqrt(size)): a 784x512 first layer's norm is 18x a 128x10
    # last layer's for the same per-weight gradient, which hid 95's and 70's vanishing;
    # the norm ratio where a layer's size is unknown
    sizes = module_sizes(run) | {p: int(np.prod(s)) for p, s in raw.items()}
    n0, n1 = (sizes.get(p if p in raw else p.rsplit(".", 1)[0], 0) for p in (w[0], w[-1]))
    per = "per weight " if n0 and n1 else ""
    if per:
        first, last = first / np.sqrt(n0), last / np.sqrt(n1)
    ratio = first / last
    if ratio > 1e-3:
        return []
    c, upstream = below_raw_inputs(run, min(0.9, 0.5 + 0.1 * np.log10(1e-3 / max(ratio, 1e-30))))
    scale = np.sqrt(n0 / n1) if per else 1.0  # the first step's ratio per weight too
    c, upstream = _weighed(f, c, upstream, gn[w[0]].values[0], gn[w[-1]].values[0] * scale)
    c, upstream = _zero_input(gn, w[0], med[w[0]], c, upstream)
    return [finding(
        "vanishing-gradient", c,
        f"the gradient shrinks towards the input: {w[0]} gets {fmt(first)} {per}against {fmt(last)} for {w[-1]} "
        f"({fmt(ratio)}x) over {len(w)} weight layers{upstream}",
        location={"param": w[0]},
        evidence=[{"series": f"grad_norm/{p}", "median": fmt(med[p])} for p in (w[0], w[len(w) // 2], w[-1])],
        fix="use ReLU-family activations with Kaiming init, residual connections or normalisation layers",
        confirm="plot grad_norm per layer (traindoc report): the first layers sit orders of magnitude below the last",
    )]


def _weighed(f, c: float, upstream: str, first0: float, last0: float) -> tuple[float, str]:
    """The confidence and the message's tail once the loss's course is weighed: a warning at
    most when the gradient was healthy at the first step (first over last, per weight, above
    1e-2) and vanished after first updates that doubled the loss (graykode's post-LN
    Transformer at Adam 1e-3 without warmup: the steps saturated it), when the loss ended
    above twice its start (saturation after a blow-up), or when it fell by more than half
    (the network learns, whatever its first layers get)."""
    at0 = first0 / last0 if last0 > 0 else float("nan")
    rise = early_rise(f) if at0 > 1e-2 else 1.0
    if rise >= 2:
        return min(c, 0.3), upstream + (f"; at the first step it got {fmt(at0)}x, and the gradient vanished after "
                                        f"first updates that raised the loss {fmt(rise)}x (a consequence "
                                        "of the step size, not of depth)")
    if np.isfinite(f.rel_drop0) and f.rel_drop0 < -1:
        # vanishing gradients slow learning, they cannot raise the loss
        return min(c, 0.3), upstream + (f"; the loss rose {-f.rel_drop0:.0%} above its start (saturation after a "
                                        "blow-up, not its cause)")
    if f.rel_drop0 > 0.5:
        return min(c, 0.3), upstream + f"; the loss still fell {f.rel_drop0:.0%}"
    return c, upstream


def _zero_input(gn: dict, w0: str, g0: float, c: float, upstream: str) -> tuple[float, str]:
    """A weight with no gradient beside its own bias with one: dL/dW = delta x^T is 0 while
    dL/db = delta is not, so the backward signal reached the layer and its input was 0 where
    the output is read (a TCN reading the last step of sequences zero-padded far beyond its
    receptive field, bench/real 428; a feature zeroed out): a warning at most, not depth."""
    if not w0.endswith("weight") or g0 > 0:
        return c, upstream
    b = gn.get(w0[: -len("weight")] + "bias")
    bias = _median(b.values) if b is not None else float("nan")
    if not (np.isfinite(bias) and bias > 0):
        return c, upstream
    return min(c, 0.3), upstream + (f"; but its bias gets {fmt(bias)}: the signal reaches the layer and its input is "
                                    "0 where the output is read (zero padding beyond the receptive field, a zeroed "
                                    "feature), not a gradient lost in depth")


def _median(v: np.ndarray) -> float:
    """The median of the finite values, NaN when there are none (a run non-finite from its
    first sampled step; np.nanmedian would warn on the user's terminal)."""
    v = v[np.isfinite(v)]
    return float(np.median(v)) if v.size else float("nan")


TIME_RATIO = 1e3  # the first call's gradient a thousandth of the last's, or less


def _through_time(run, f) -> list:
    """Backpropagation through a recurrence's calls vanished and the loss barely moved."""
    worst = None
    for name, s in sampled(run, "time_grad/").items():
        v = s.values[np.isfinite(s.values)]
        if v.size < 3:
            continue
        med = float(np.median(v[-max(2, v.size // 3):]))
        if med >= TIME_RATIO and (worst is None or med > worst[1]):
            worst = (name, med, s)
    if worst is None or not np.isfinite(f.rel_drop0) or f.rel_drop0 >= 0.2:
        return []  # (a model that learns has found its path, whatever the early steps get)
    mod, ratio, s = worst
    calls = next((e["data"].get(mod) for e in run.events() if e["kind"] == "repeated-modules"
                  and isinstance(e.get("data"), dict)), None)
    c = min(0.7, 0.55 + 0.05 * np.log10(ratio / TIME_RATIO))
    return [finding(
        "vanishing-gradient", c,
        f"the gradient vanishes through the repeated calls of {mod}"
        + (f" ({calls} per forward)" if calls else "")
        + f": its first call gets {fmt(1 / ratio)} of the gradient its last call gets (median of the last "
        f"third of the run), and the loss moved {f.rel_drop0:.1%} from its start: the first time steps never learn",
        location={"module": mod},
        evidence=[{"series": f"time_grad/{mod}", "median": fmt(ratio), "last": fmt(float(s.values[-1]))}],
        fix="give the recurrence a gradient path: initialise an LSTM's forget-gate bias to 1 (or use nn.LSTM/GRU, "
            "which keep one), gating or residual connections, or shorter sequences",
        confirm="print the gradient norm at each time step's output (a tensor hook): it shrinks by orders of "
                "magnitude from the last step to the first",
    )]

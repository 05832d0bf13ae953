"""bad-init (TD701)."""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from .. import rule
from ..evidence import act_stat, finding, focus_rank, module_order, param_modules, raw_inputs
from ..evidence.model import optimizer_entries, raw_param_shapes
from ..symptoms.loss_plateau import STILL_HIGH
from ..util import fmt, train_loss

# rms(W) * sqrt(fan_in), the factor by which a layer scales unit-variance inputs (see
# traindoc.monitor.context.init_gains): PyTorch's default Linear/Conv init gives 0.58,
# Xavier at most 1.41, Kaiming 1.41, orthogonal 1 (x its gain), GPT-2's N(0, 0.02) 0.55 on
# 768 inputs and 2.1 on 11 008; N(0, 1) or U(-1, 1) give sqrt(fan_in) and sqrt(fan_in / 3),
# 6 from 36 (108) inputs on: a per-layer factor no common scheme reaches.
LARGE_GAIN = 6.0
AMPLIFIED_STD = 10.0  # a layer's output std at init above which the seeds say init or norm is wrong


@rule("bad-init", needs=("loss",))
def bad_init(run):
    """What it detects: at the first sampled step (before training has changed the
    weights much), the standard deviation of the layers' outputs grows or shrinks with
    depth by more than 30x from the first weight layer to the last hidden one: each
    layer multiplies the signal's scale by a factor far from 1.

    Why it happens: weights drawn with a fixed std (normal(0, 1), normal(0, 0.01))
    instead of one scaled by the fan-in (Kaiming for ReLU, Xavier for tanh), custom init
    functions copied from another architecture.

    Also: weight tensors that start at exactly 0 and never move (an all-zero init: every
    unit computes the same thing and, behind a ReLU or a product, gets a zero gradient),
    read from the sampled parameter norms; this needs no activation statistics, so it
    works for models built from raw tensors. And, from the replay of a step-0 bundle
    (``traindoc.forensics.findings``): an op that overflows to Inf on finite inputs of
    |x| >= 50 in the first forward, before any update (exp of an FFM's +-100 logits drawn
    from U(0, 1)): ranked above the op, which is only where the scale shows.

    Also: every weight tensor (two or more) starting at exactly 0, or each filled with one
    constant (``nn.init.constant_``): the units of each hidden layer stay identical copies of
    each other (a zero-initialised hidden layer behind a zero output layer learns like one unit).

    Also: weight tensors whose initial fan-in gain, rms(W) * sqrt(fan_in), is 6 or more
    (``N(0, 1)`` or ``U(-1, 1)`` on a layer with dozens of inputs or more; the common
    schemes stay at or below 1.41, up to ~2 for a 0.02 std on very wide inputs), when it
    shows: the layer's output std is 10 or more at the first sample, or the loss ended at
    60 % of its start or higher. Large weights multiply the signal at every such layer, and
    under Adam each update is ~lr per weight, a tiny fraction of weights of std 1, so even
    when a normalisation layer hides the scale, learning crawls.

    Also, for a network of raw tensors handed to the optimizer (no module: no activation
    statistics), the weights' fan-in gains read before the first update (the first
    optimizer's): when the median one is 0.3 or less and they multiply to under 1e-3 over
    the hidden weight layers (three at least) and the loss stayed at 60 %
    of its start or above, the signal reaching the output (and the gradient coming back) is
    that small a fraction of the input's: the output does not depend on the input and the
    loss sits at its start (a fixed 0.01 std on five layers of width 100: 0.1 per layer).

    How to confirm: print the std of each layer's output on one batch at init: a
    variance-preserving init keeps it within ~3x of 1 across depth.

    How to fix: nn.init.kaiming_normal_ (ReLU) or xavier_uniform_ (tanh/sigmoid), or
    the layers' default init; add normalisation layers in deep nets.
    """
    zero = zero_stuck(run)
    if zero:
        return [_zero_init(zero)]
    found = _scale_with_depth(run) + _large_gain(run) + _symmetric(run) + _small_gains(run)
    return [max(found, key=lambda f: f.confidence)] if found else []


def _zero_init(zero: list[str]) -> Finding:
    return finding(
        "bad-init", 0.9,
        f"{len(zero)} parameter tensor(s) start at exactly 0 and never change ({', '.join(zero[:3])}): an all-zero "
        "init makes every unit of a layer compute the same thing, and behind a ReLU or a product the gradient "
        "is 0 too, so they never leave it",
        location={"param": zero[0]},
        evidence=[{"series": f"param_norm/{p}", "value": 0.0} for p in zero[:3]],
        fix="initialise weights randomly (nn.init.kaiming_normal_ / xavier_uniform_, or the layers' defaults); "
            "only biases may start at 0",
        confirm="print each weight's norm before training: a weight matrix at exactly 0 cannot break its symmetry",
    )


def zero_init(run) -> list[str]:
    """The trainable weight tensors (2-D and up) that were exactly 0 at the first optimizer
    step (their fan-in gain read then is 0), in the model's order."""
    return [p for p, g in _gains(run) if g == 0]


def _gains(run) -> list[tuple[str, float]]:
    """(weight tensor, fan-in gain) from the model summaries, or, for a network of raw
    tensors (``x @ W1``, updated by hand), from the loss graph's leaves: 0.0 for a weight
    (2-D and up) that was exactly 0 at the first backward, 1.0 (some other value) otherwise."""
    rows = [(p, g) for key, m in run.meta.items() if key.startswith("model/") and isinstance(m, dict)
            for p, _, g in m.get("init_gain", [])]
    rows = rows or _optimizer_gains(run)  # raw tensors handed to an optimizer
    gp = run.meta.get("graph_params")
    if rows or not isinstance(gp, dict) or not isinstance(gp.get("zero"), list):
        return rows
    return [(f"graph.param{i}", 0.0 if z else 1.0) for i, (shape, z) in enumerate(zip(gp["shapes"], gp["zero"]))
            if len(shape) >= 2]


def _optimizer_gains(run) -> list[tuple[str, float]]:
    """(opt0.group0.param3, gain) of the weights of raw tensors handed to an optimizer, read
    before its first update (the optimizer summary's ``gains`` when no model is watched)."""
    return [(p, float(g)) for p, g in optimizer_entries(run, "gains") if g is not None]


def constant_init_dominates(run) -> bool:
    """Every weight tensor of the model, two at least, started with all its values equal
    (``nn.init.constant_(w, 0.05)``, zeros; the model summary's ``constant_weights``): the
    units of each layer are copies of each other and stay so (bench/real 394)."""
    names = _weight_names(run)
    const = {p for key, m in run.meta.items() if key.startswith("model/") and isinstance(m, dict)
             for p in m.get("constant_weights") or ()}
    return len(names) >= 2 and all(p in const for p in names)


def _weight_names(run) -> list[str]:
    """The trainable weight tensors of the watched models (the rows of their ``init_gain``)."""
    return [p for key, m in run.meta.items() if key.startswith("model/") and isinstance(m, dict)
            for p, _, _ in m.get("init_gain", [])]


def zero_init_dominates(run) -> bool:
    """Every weight tensor of the model, two at least, started at exactly 0: update/weight
    ratios then measure steps against weights that grow from nothing (1.8 at the start, 0.008
    at the end of bench/real 302 at a usual SGD rate), not the step size. (Half of them is not
    enough: LoRA's B matrices are half the trainable weights of an adapter-only run, Fixup
    zeroes half of a ResNet's convolutions, and both start the rest at random.)"""
    gains = [g for _, g in _gains(run)]
    return len(gains) >= 2 and all(g == 0 for g in gains)


def _symmetric(run) -> list[Finding]:
    """Every weight tensor of the model at exactly 0 at the start, two at least: the units
    of each hidden layer compute the same function and get the same gradient, so they stay
    copies of each other for the whole run (a hidden layer of one unit). Zero tensors next to
    random ones are left alone: one random layer breaks the symmetry (LoRA's B, a
    zero-initialised head, Fixup's zeroed residual branches, ControlNet's zero convolutions),
    and the registration order the gains come in is not the order data flows in."""
    zeros = zero_init(run)
    if not zero_init_dominates(run):
        return _constant(run)
    pair = (zeros[0], zeros[1])
    # without dropout nothing can make two identical units differ: a fact, not a risk (dropout's
    # random masks do break the tie, slowly)
    sure = {"symmetric": True} if not any("Dropout" in c for _, c in module_order(run)) else {}
    return [finding(
        "bad-init", 0.85,
        f"all {len(zeros)} weight tensors start at exactly 0 ({pair[0]}, {pair[1]}{', ...' if len(zeros) > 2 else ''}): the units of each hidden "
        "layer compute the same thing and receive the same gradient, so they stay identical copies for the whole "
        "run (the layer learns like a single unit)",
        location={"param": pair[0]},
        evidence=[{"meta": "init_gain", "param": p, "gain": 0.0, **sure} for p in zeros[:4]],
        fix="initialise weights randomly (the layers' defaults, nn.init.kaiming_normal_ / xavier_uniform_); only "
            "biases (and at most one layer of a pair) may start at 0",
        confirm="print the hidden layer's weight rows after training: with an all-zero init they are all equal",
    )]


def _constant(run) -> list[Finding]:
    """Every weight tensor filled with one value each (not 0): the same symmetry as an
    all-zero init, each hidden layer a single unit copied."""
    if not constant_init_dominates(run):
        return []
    names = _weight_names(run)
    sure = {"symmetric": True} if not any("Dropout" in c for _, c in module_order(run)) else {}
    return [finding(
        "bad-init", 0.9,
        f"all {len(names)} weight tensors start with every value the same ({', '.join(names[:2])}"
        f"{', ...' if len(names) > 2 else ''}: a constant fill): the units of each hidden layer compute the same "
        "thing and receive the same gradient, so they stay identical copies for the whole run (each layer learns "
        "like a single unit)",
        location={"param": names[0]},
        evidence=[{"meta": "constant_weights", "param": p, **sure} for p in names[:4]],
        fix="initialise weights randomly (the layers' defaults, nn.init.kaiming_normal_ / xavier_uniform_); a "
            "constant fill never breaks the symmetry",
        confirm="print a hidden layer's weight rows after training: they are all equal",
    )]


def _scale_with_depth(run) -> list[Finding]:
    """The output std at the first sampled step, from the first weight layer to the last
    hidden one, when it changes by more than 30x."""
    if not run.matching("act/", focus_rank(run)):
        return []
    sd = act_stat(run, "std")
    mods = [m for m, c in param_modules(run) if m in sd and not c.startswith("Embedding")]
    if len(mods) < 3:
        return []
    hidden = mods[:-1]  # the output layer's scale is the task's
    s0 = [float(sd[m][0]) for m in hidden]
    first, last = s0[0], s0[-1]
    if first <= 0 or last <= 0 or not np.isfinite(first) or not np.isfinite(last):
        return []
    ratio = last / first
    if 1 / 30 <= ratio <= 30:
        return []
    if ratio < 1 and (first > 20 or raw_inputs(run) is not None):
        return []  # a huge first layer that then shrinks: the inputs' scale (data-unnormalized)
    grows = ratio > 1
    c = min(0.9, 0.5 + 0.1 * abs(np.log10(ratio)) - 0.15)
    return [finding(
        "bad-init", c,
        f"activations {'grow' if grows else 'shrink'} with depth at initialisation: output std {fmt(first)} after "
        f"{hidden[0]} and {fmt(last)} after {hidden[-1]} ({fmt(ratio)}x over {len(hidden)} layers)",
        location={"module": hidden[-1]},
        evidence=[{"series": f"act/{m}/std", "first_sample": fmt(v)} for m, v in list(zip(hidden, s0))[:: max(1, len(hidden) // 4)]],
        fix="initialise with a fan-in-scaled init (kaiming_normal_ for ReLU, xavier_uniform_ for tanh) or the defaults",
        confirm="print each layer's output std on one batch at init: with a correct init it stays within ~3x of 1",
    )]


def zero_stuck(run) -> list[str]:
    """Parameters whose norm is exactly 0 on every sampled step while the run trained (at
    least 3 samples), weights before biases (1-D tensors: a bias, a BatchNorm's shift); []
    when some weight moved off 0 or none is 0."""
    rank = focus_rank(run)
    norms = run.matching("param_norm/", rank)
    out = []
    for p, s in norms.items():
        v = s.values[np.isfinite(s.values)]
        if len(v) >= 3 and np.all(v == 0):
            out.append(p)
    shapes = raw_param_shapes(run)  # raw tensors (opt3.group0.param1) have no name to read "bias" from
    bias = lambda p: p.endswith("bias") or len(shapes.get(p, (0, 0))) == 1  # noqa: E731 - or a norm's shift
    if not out or all(bias(p) for p in out):
        return []  # zero biases are the usual init (a BatchNorm's shift too)
    return sorted(out, key=bias)


def _large_gain(run) -> list[Finding]:
    """Weights initialised far above any fan-in-scaled scheme (:data:`LARGE_GAIN`), with
    either their outputs blown up at the first sample or a loss that did not fall."""
    big, owner = [], {}
    for key, m in run.meta.items():
        if key.startswith("model/") and isinstance(m, dict):
            for p, c, g in m.get("init_gain", []):
                if g >= LARGE_GAIN:
                    big.append((p, c, g))
                    # the module's activation key: its path, or the model's name for the root's own
                    # weight (a model that is one nn.Linear: "weight" -> act/model/..., bench/real 402)
                    owner[p] = p.rpartition(".")[0] or str(m.get("name") or key[6:])
    if not big:
        return []
    sd = act_stat(run, "std") if run.matching("act/", focus_rank(run)) else {}
    loud = [(p, float(sd[owner[p]][0])) for p, _, _ in big
            if owner[p] in sd and float(sd[owner[p]][0]) >= AMPLIFIED_STD]
    _, loss = train_loss(run, focus_rank(run))
    n = len(loss)
    start, end = (float(np.median(loss[: max(3, n // 20)])), float(np.median(loss[-max(1, n // 4):]))) if n else (0, 0)
    stuck = n >= 20 and start > 0 and end >= STILL_HIGH * start  # (a loss that can go negative says nothing here)
    nonfinite = bool(np.any(~np.isfinite(run.series("loss", focus_rank(run)).values)))
    if not (loud or stuck or nonfinite):
        return []
    p, c, g = max(big, key=lambda r: r[2])
    shown = f"; its output std at the first sample {fmt(loud[0][1])}" if loud else ""
    outcome = ""
    if nonfinite:
        outcome = "; the loss went non-finite"
    elif stuck:
        outcome = f"; the loss ended at {fmt(end / start)}x its start"
    conf = 0.45 + 0.1 * bool(loud) + 0.1 * (stuck or nonfinite) + 0.05 * min(2.0, float(np.log2(g / LARGE_GAIN)))
    return [finding(
        "bad-init", conf,
        f"{len(big)} weight tensor(s) start far above a fan-in-scaled init: {p} ({c}) has gain rms(W)*sqrt(fan_in) "
        f"= {fmt(g)} (PyTorch's default 0.58, Kaiming 1.41){shown}{outcome}",
        location={"param": p},
        evidence=[{"meta": "init_gain", "param": q, "class": k, "gain": fmt(x)} for q, k, x in big[:4]],
        fix="initialise with a fan-in-scaled init (kaiming_normal_ for ReLU, xavier_uniform_ for tanh) or the layers' "
            "defaults, not a fixed std of 1",
        confirm="print each layer's output std on one batch at init: with a correct init it stays within ~3x of 1; "
                "traindoc confirm's reinit experiment retrains with the default init",
    )]


SMALL_PRODUCT = 1e-3  # the signal's scale after the hidden layers, as a share of the input's
SMALL_GAIN = 0.3  # a layer's gain at most this (the median one): below every common scheme (default 0.58)


def _small_gains(run) -> list[Finding]:
    """Raw weights whose gains multiply to under SMALL_PRODUCT over the hidden layers
    (every weight but the last, in the optimizer's order), with a loss that did not fall."""
    rows = [(p, g) for p, g in _optimizer_gains(run) if p.startswith("opt0.")]  # one network: the first optimizer's
    if len(rows) < 4 or any(g == 0 for _, g in rows):
        return []  # (a weight at exactly 0 is the symmetric case, not a small scale)
    hidden = rows[:-1]
    prod = float(np.prod([g for _, g in hidden]))
    if float(np.median([g for _, g in hidden])) > SMALL_GAIN:
        return []  # the layers' own scale is ordinary (PyTorch's default 0.58): depth alone is no init fault
    _, loss = train_loss(run, focus_rank(run))
    n = len(loss)
    if n < 20 or prod >= SMALL_PRODUCT:
        return []
    start, end = float(np.median(loss[: max(3, n // 20)])), float(np.median(loss[-max(1, n // 4):]))
    if not (start > 0 and end >= STILL_HIGH * start):
        return []
    shown = ", ".join(fmt(g) for _, g in hidden[:6])
    return [finding(
        "bad-init", min(0.85, 0.6 + 0.05 * np.log10(SMALL_PRODUCT / max(prod, 1e-300))),
        f"the weights start far below a fan-in-scaled init: gains rms(W)*sqrt(fan_in) {shown} over {len(hidden)} hidden "
        f"weight layers multiply to {fmt(prod)}, so the output carries about that fraction of the input's scale and "
        f"the gradients are as small; the loss ended at {fmt(end / start)}x its start",
        location={"param": hidden[0][0]},
        evidence=[{"meta": "optimizer gains", "param": p, "gain": fmt(g)} for p, g in hidden[:4]],
        fix="initialise each weight with a fan-in-scaled std (Kaiming: sqrt(2 / fan_in) for ReLU, Xavier for tanh), "
            "not a fixed 0.01",
        confirm="print each layer's output std on one batch at init: it shrinks by ~the gain at every layer",
    )]

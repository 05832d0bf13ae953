"""TD531 loss-arguments-swapped: ``criterion(target, output)`` for a loss whose arguments are not interchangeable."""

from __future__ import annotations

import ast

from .. import names as N
from ..flow import model_output, single_def
from ..ops import loss_of
from ..registry import Hit, lint_rule
from ..source import short


@lint_rule(
    "loss-arguments-swapped", "TD531", "error",
    "the model's output passed as the target (second argument) of cross_entropy / nll_loss / BCE, and the labels as input",
    needles=[("ross_entropy", "CrossEntropy", "nll_loss", "NLLLoss", "BCE", "binary_cross")],
    fix="the model output comes first: loss = criterion(output, target)",
    confirm="print the two shapes at the loss: the first is (N,) labels, the second (N, C) scores",
)
def check(m):
    """What it detects: a call of `cross_entropy`, `nll_loss`, `binary_cross_entropy`
    (with or without logits), as a function or a module, whose second argument is
    provably the output of a model (a call of a same-file `nn.Module`, an
    `nn.Sequential`, a torch.nn layer, directly or through one name) and whose first is
    not; or whose first argument is provably integer class indices (`torch.arange(m)`,
    `torch.randint(...)`, `.argmax(...)`, `.long()`, directly or through one name, the
    contrastive `labels = torch.arange(n)` of InfoNCE) and whose second is not (that clause
    for cross_entropy and nll_loss only). Symmetric losses (MSE, L1) are not checked, nor is `kl_div`, whose target is a
    teacher's output in distillation.

    Why it happens: the input is the prediction and the target the labels;
    these losses treat them differently (log_softmax of the input, indices or
    probabilities for the target). Swapped, the call fails with a dtype or shape error,
    or, for BCE with float labels, silently trains the labels towards the model: the
    gradient flows into the target side only and the model never learns (cause
    `loss-mismatch`).

    Example:
        out = model(x)
        loss = F.cross_entropy(y, out)

    How to fix:
        loss = F.cross_entropy(out, y)
    """
    for site in m.w.calls:
        lc = loss_of(m, site.node)
        if lc is None or lc[0] not in N.ASYMMETRIC_LOSSES or lc[0] == "kl_div":
            continue
        _, inp, tgt = lc
        if inp is None or tgt is None:
            continue
        if model_output(m, tgt) and not model_output(m, inp):
            yield Hit(site.node, f"{lc[0]}({short(inp)}, {short(tgt)}): the second argument is the model's output "
                                 "and the first is not; the prediction comes first, the target second")
        elif lc[0] in ("cross_entropy", "nll_loss") and _indices(m, inp) and not _indices(m, tgt):
            yield Hit(site.node, f"{lc[0]}({short(inp)}, {short(tgt)}): the first argument is integer class indices "
                                 "(the target) and the second the scores; the scores come first, the indices second")


# Calls whose result is an integer tensor whatever their input (unless a float dtype is passed).
_INT_MAKERS = frozenset({"torch.arange", "torch.randint", "torch.randperm"})
_INT_METHODS = frozenset({"argmax", "argmin", "long", "int", "argsort"})
# Methods that keep the dtype of what they are called on.
_KEEPS = frozenset({"repeat", "repeat_interleave", "view", "reshape", "to", "cuda", "flatten", "expand",
                    "unsqueeze", "squeeze", "contiguous", "clone", "detach", "t"})


def _indices(m, e, depth: int = 2) -> bool:
    """``e`` is provably an integer tensor: ``torch.arange(n)`` (no float dtype, integer
    bounds), ``torch.randint``, ``x.argmax(1)``, ``y.long()``, and dtype-keeping methods of
    those (``.repeat(b)``, ``.to(device)``), directly or through one name."""
    if isinstance(e, ast.Name) and depth:
        d = single_def(m, e)
        return d is not None and _indices(m, d, depth - 1)
    if not isinstance(e, ast.Call):
        return False
    if any(k.arg == "dtype" and not any(w in (short(k.value) or "") for w in ("int", "long")) for k in e.keywords):
        return False  # (a float dtype, or one held in a name: not provably integer)
    f = e.func
    if isinstance(f, ast.Attribute) and f.attr in _INT_METHODS:
        return True
    c = m.callee(e)
    if c[0] == "fn" and c[1] in _INT_MAKERS:
        return not any(isinstance(a, ast.Constant) and isinstance(a.value, float) for a in e.args)
    if isinstance(f, ast.Attribute) and f.attr in _KEEPS:
        # .to(device) keeps the dtype; .to(torch.float32) or .to(other_tensor) does not
        if f.attr == "to" and not all(_device_like(a) for a in e.args):
            return False
        return _indices(m, f.value, depth)
    return False


def _device_like(a) -> bool:
    t = (short(a) or "").lower()
    return "device" in t or "cuda" in t or "cpu" in t or t in ("dev", "rank", "local_rank")

"""TD501 log-of-softmax: ``torch.log(torch.softmax(x))`` instead of ``log_softmax``."""

from __future__ import annotations

import ast

from .. import names as N
from ..main_model import forward_output
from ..ops import op_of
from ..origin import origin
from ..registry import Hit, lint_rule
from .one_hot_target import _filled_rows, _one_hot


@lint_rule(
    "log-of-softmax", "TD501", "error",
    "the log of a softmax (or sigmoid) output computed in two steps: -inf where the probability underflows",
    needles=[("log",), ("softmax", "Softmax", "sigmoid", "Sigmoid", "expit")],
    fix="use F.log_softmax(x, dim) (or F.logsigmoid(x)) on the logits",
    confirm="feed logits with a spread of ~100 (e.g. x * 100): log(softmax(x)) has -inf entries, log_softmax does not",
)
def check(m):
    """What it detects: the log of a softmax or sigmoid output computed in two steps,
    `torch.log(torch.softmax(x, -1))`, `F.softmax(x, -1).log()`, `torch.log(p)` where
    `p = nn.Softmax(-1)(x)` (through names, aliases, method calls and modules assigned in
    `__init__`), and `torch.log(torch.sigmoid(x))`. Also `policies[i].log()` in a function that receives them from outside
    the file (a rollout), named after the softmax output the file's model returns (`policy`). Also the target's probability picked
    with a one-hot mask, `(softmax(x) * one_hot).sum(1).log()` (the focal-loss spelling; the
    mask from `F.one_hot`, `torch.eye(C)[y]` or `zeros(...).scatter_(1, y, 1)`), and the true
    label's probability picked by hand, `torch.where(y == 1, p, 1 - p).log()` with `p` a sigmoid
    or softmax output (a binary cross-entropy written out). A guarded argument
    (`softmax(x) + eps`, `.clamp(min=eps)`) is not flagged.

    Why it happens: softmax rounds every probability below ~1e-38 (float32; 6e-8
    in float16) to exactly 0, and log(0) = -inf. One confident wrong prediction then gives
    an infinite loss, and its gradient inf * 0 gives NaN that spreads to every weight at
    the next step (cause `unstable-op`). `log_softmax` computes x - logsumexp(x) and stays
    finite for any finite logits, and is also faster (one kernel, one pass).

    Example:
        logp = torch.log(F.softmax(logits, dim=-1))      # -inf once a logit is 100 below the max
        loss = F.nll_loss(logp, y)

    How to fix:
        logp = F.log_softmax(logits, dim=-1)             # or F.cross_entropy(logits, y)
        logq = F.logsigmoid(z)                           # for log(sigmoid(z))
    """
    for site in m.w.calls:
        call = site.node
        if op_of(m, call) != "log":
            continue
        x = m.subject(call)
        k = m.kind(x)
        if k == "softmax":
            yield Hit(call, "log of a softmax output gives -inf (then NaN gradients) where a probability "
                            "underflows to 0; use log_softmax")
        elif k is None and _picked(m, x, 3):
            yield Hit(call, "log of the target's softmax probability, picked with a one-hot mask: -inf (then NaN "
                            "gradients) where it underflows to 0; take F.log_softmax(x, 1) and pick with "
                            "logp.gather(1, y[:, None]) (exp() of it gives the probability a focal term needs)")
        elif k is None and _where_of_probs(m, x):
            yield Hit(call, "log of a probability picked with torch.where from a sigmoid (p or 1 - p): -inf where it "
                            "underflows to 0 or rounds to 1; use F.binary_cross_entropy_with_logits on the logits "
                            "(or F.logsigmoid(z) and F.logsigmoid(-z))", fix="use F.binary_cross_entropy_with_logits")
        elif k is None and (out := _named_output(m, x)) is not None:
            made = origin(m, out, "softmax") or out
            yield Hit(call, f"log of `{ast.unparse(x)}`, by its name the model's `{out.id}` (line {made.lineno}), a "
                            f"softmax output: -inf (then NaN gradients) where a probability underflows to 0; return "
                            f"log_softmax from forward as well and use it here",
                      related=((made, "the model's softmax output"),))
        elif k == "sigmoid":
            yield Hit(call, "log of a sigmoid output gives -inf where the sigmoid underflows to 0; use F.logsigmoid",
                      fix="use F.logsigmoid(z) on the pre-sigmoid value")


_RESHAPE = frozenset({"view", "reshape", "squeeze", "unsqueeze", "flatten", "contiguous"})


def _picked(m, e, depth: int) -> bool:
    """``(p * mask).sum(1)`` (through names and reshapes) with ``p`` a softmax and ``mask`` a
    one-hot: the target class's probability, a softmax value like any other."""
    if depth < 0:
        return False
    if isinstance(e, ast.Name):
        d = m.defs(e)
        return bool(d) and len(d) == 1 and isinstance(d[0], ast.expr) and _picked(m, d[0], depth - 1)
    if not isinstance(e, ast.Call):
        return False
    c = m.callee(e)
    if c[0] == "meth" and c[1] in _RESHAPE:
        return _picked(m, c[2], depth - 1)
    prod = c[2] if c[0] == "meth" and c[1] == "sum" else \
        m.first_arg(e) if c[0] == "fn" and c[1] in N.SUM else None
    if not (isinstance(prod, ast.BinOp) and isinstance(prod.op, ast.Mult)):
        return False
    for a, b in ((prod.left, prod.right), (prod.right, prod.left)):
        if m.kind(a) == "softmax" and (_one_hot(m, b, 3) or isinstance(b, ast.Name) and _hand_made(m, b)):
            return True
    return False


def _hand_made(m, b: ast.Name) -> bool:
    d = m.defs(b)
    return bool(d) and len(d) == 1 and isinstance(d[0], ast.expr) and bool(_filled_rows(m, b.id, d[0]))


def _where_of_probs(m, e) -> bool:
    """``torch.where(y == 1, p, 1 - p)`` with ``p`` a sigmoid or softmax output (through
    names): the probability of the true label, written by hand (fastbook's exercise)."""
    if isinstance(e, ast.Name):
        d = m.defs(e)
        e = d[0] if d and len(d) == 1 and isinstance(d[0], ast.expr) else e
    if not (isinstance(e, ast.Call) and m.qualname(e.func) == "torch.where" and len(e.args) == 3):
        return False
    return all(_prob(m, a) for a in e.args[1:])


def _prob(m, e) -> bool:
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Sub) and isinstance(e.left, ast.Constant) \
            and e.left.value == 1:
        e = e.right  # 1 - p
    return m.kind(e) in ("softmax", "sigmoid")


def _named_output(m, x):
    """``policies[i]`` (or ``policy``) in a function that receives it from outside the file (a
    rollout buffer), named after the softmax output the file's model returns: ACER's
    ``policy = F.softmax(...); return policy, Q, V`` and ``policies[i].log()`` in its loss."""
    while isinstance(x, ast.Subscript):
        x = x.value
    if not isinstance(x, ast.Name) or m.kind(x) is not None:
        return None
    out = forward_output(m, x.id)
    return out if out is not None and m.kind(out) == "softmax" else None

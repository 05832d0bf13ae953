"""TD502 unshifted-softmax: ``x.exp() / x.exp().sum(...)`` without subtracting the max."""

from __future__ import annotations

import ast

from ..ops import divisor, op_of
from ..origin import origin
from ..registry import Hit, lint_rule


@lint_rule(
    "unshifted-softmax", "TD502", "error",
    "a hand-written softmax that does not subtract the row max: exp overflows to inf and inf/inf is NaN",
    needles=[("exp",), ("sum", "_add")],
    fix="use torch.softmax(x, dim) (with masked_fill(~mask, -inf) for masks), or subtract x.amax(dim, keepdim=True) first",
    confirm="add 100 to the scores: the hand-written version returns NaN, torch.softmax does not",
)
def check(m):
    """What it detects: a softmax written by hand, exp(x) divided by the sum of exp(x),
    where x is not shifted by its maximum first: `x.exp() / x.exp().sum(-1, keepdim=True)`,
    `e = torch.exp(s) * mask; e / e.sum(1, keepdim=True)`, `torch.div(e, e.sum(...))`, and
    a grouped (scatter) softmax: `e / torch.zeros(n).index_add_(0, index, e)[index]`
    (also `scatter_add_`, `torch_scatter.scatter_add`).
    The finding points at the exp when it is a statement of its own (the line to change),
    else at the division. A shifted argument (`x - x.max(...)`, `x - x.amax(...)`, `x - logsumexp`, a clamp from
    above, a log-probability) is not flagged.

    Why it happens: float32 exp overflows to inf above x = 88.7 (float16: 11.1).
    A single large score (a long sequence whose pooled query grows with its length, a
    large learning rate step) makes exp return inf, inf / inf is NaN, and the NaN reaches
    the loss and every weight (cause `unstable-op`). The fused softmax subtracts the row
    max internally, so exp never sees a positive argument. This is the founding story of
    traindoc: a CTR model went NaN after 10 000 steps on one 5 000-long user history.

    Example:
        w = torch.exp(scores) * mask
        w = w / w.sum(1, keepdim=True)                   # NaN once a score exceeds ~88

    How to fix:
        w = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=1)
        # or, by hand: e = (scores - scores.amax(1, keepdim=True)).exp()
    """
    for site in m.w.divs:
        d = site.node
        if _unshifted(m, d.left, d.right):
            yield _hit(m, d, d.left, "(float16: 11) and inf/inf is NaN")
    for site in m.w.calls:
        call = site.node
        if op_of(m, call) == "div":
            num = m.subject(call)
            if num is not None and _unshifted(m, num, divisor(m, call)):
                yield _hit(m, call, num, "and inf/inf is NaN")


def _hit(m, div, num, tail: str) -> Hit:
    """At the exp when it is its own statement (`e = torch.exp(s)`; the line to change, the
    one reviewers point at), citing the division; else at the division."""
    msg = f"hand-written softmax without max subtraction: exp overflows to inf above 88 {tail}"
    src = origin(m, num, "exp")
    if src is not None and src.lineno != div.lineno:
        return Hit(src, f"{msg} (the division on line {div.lineno})",
                   related=((div, "the division: inf/inf is NaN"),))
    return Hit(div, msg)


def _unshifted(m, num: ast.AST, den: ast.AST) -> bool:
    if den is None:
        return False
    return m.has_kind(num, ("exp",)) and m.has_kind(den, ("sumexp",))


def _exp(m, num) -> tuple:
    """The exp to shift (the line to change), cited with the division."""
    src = origin(m, num, "exp")
    return ((src, "the exp to subtract the row max in"),) if src is not None else ()

"""TD542 fully-masked-softmax: scores filled with -inf under a mask that is not causal, then a
softmax, with nothing guarding a row where every entry is masked."""

from __future__ import annotations

import ast
import re

from .. import names as N
from ..registry import Hit, lint_rule
from ..source import may_be
from .softmax_over_batch_dim import _assigned_name, _enclosing_function

# a causal / look-ahead mask always leaves the diagonal visible: no row is ever all -inf
_CAUSAL = re.compile(r"tril|triu|causal|subsequent|future|look_?ahead|nopeak|no_peek|square|diag|eye|\bbias\b",
                     re.I)
_GUARDS = ("nan_to_num", "isnan", "isfinite")


def _minus_inf(e: ast.AST) -> bool:
    """``float("-inf")``, ``-float("inf")``, ``-math.inf``, ``-np.inf``, ``-torch.inf``, ``float('-Infinity')``."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
        v = e.operand
        if isinstance(v, ast.Attribute) and v.attr == "inf":
            return True
        return (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "float" and v.args
                and isinstance(v.args[0], ast.Constant) and str(v.args[0].value).lower() in ("inf", "infinity"))
    return (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "float" and e.args
            and isinstance(e.args[0], ast.Constant) and str(e.args[0].value).lower() in ("-inf", "-infinity"))


def _mask_text(m, fn: ast.AST, mask: ast.AST) -> str:
    """The mask expression, with the assignments of the plain names it uses in the same
    function (``mask = torch.tril(...)`` two lines up), as source text."""
    parts = [ast.unparse(mask)]
    used = {n.id for n in ast.walk(mask) if isinstance(n, ast.Name)}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in used for t in node.targets):
            parts.append(ast.unparse(node.value))
    return " ".join(parts)


def _softmax_of(m, fn: ast.AST, name: str, after: int) -> ast.Call | None:
    """The first softmax (any spelling) of the plain name ``name`` in ``fn`` after line ``after``."""
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and node.lineno >= after and may_be(node, {"softmax"})):
            continue
        c = m.callee(node)
        if c[0] == "fn" and c[1] in N.SOFTMAX and node.args and isinstance(node.args[0], ast.Name) \
                and node.args[0].id == name:
            return node
        f = node.func
        if c[0] == "meth" and c[1] == "softmax" and isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                and f.value.id == name:
            return node
    return None


@lint_rule(
    "fully-masked-softmax", "TD542", "warning",
    "scores filled with -inf under a padding-style mask (not causal), then a softmax: a row whose "
    "every entry is masked (an all-padding sequence) is exp(-inf)/sum = 0/0 = NaN",
    needles=[("masked_fill",), ("inf",), ("softmax",)],
    fix="fill with torch.finfo(scores.dtype).min instead of -inf, or zero the fully masked rows after the "
        "softmax (torch.where(mask.any(-1, keepdim=True), attn, 0))",
    confirm="run one batch that holds an all-padding sequence: the attention weights of its rows are NaN",
)
def check(m):
    """What it detects: `s = s.masked_fill(mask, float("-inf"))` (any -inf spelling, in place
    or not) whose result reaches a softmax in the same function, where the mask is not a
    causal one (neither the mask expression nor the assignment of the names it uses in that
    function mentions tril/triu/causal/subsequent/future, or nanoGPT's `bias` buffer) and the
    function does not guard against NaN (`nan_to_num`, `isnan`, `isfinite`). The line is the
    `masked_fill`.

    Why it happens: a causal mask always leaves the diagonal visible, but a padding
    mask can hide every key of a row: an empty sentence, a document with all its sentences
    padded, a query position whose keys were all dropped. Softmax of a row of -inf is 0/0:
    the row is NaN, every output it feeds is NaN, and the loss goes NaN on the rare batch
    that holds such a row (PyTorch's own `MultiheadAttention` returned NaN there until it
    special-cased it). `torch.finfo(dtype).min` gives a uniform row instead, which the
    padding then ignores.

    Example:
        scores = scores.masked_fill(pad_mask == 0, float("-inf"))
        attn = F.softmax(scores, dim=-1)

    How to fix:
        scores = scores.masked_fill(pad_mask == 0, torch.finfo(scores.dtype).min)
        attn = F.softmax(scores, dim=-1)
    """
    for site in m.w.calls:
        call = site.node
        f = call.func
        if not (isinstance(f, ast.Attribute) and f.attr in ("masked_fill", "masked_fill_") and len(call.args) >= 2):
            continue
        if not _minus_inf(call.args[1]):
            continue
        fn = _enclosing_function(m, call) or m.tree
        if _CAUSAL.search(_mask_text(m, fn, call.args[0])):
            continue
        name = (f.value.id if f.attr == "masked_fill_" and isinstance(f.value, ast.Name)
                else _assigned_name(m, call))
        if name is None or _softmax_of(m, fn, name, call.lineno) is None:
            continue
        src = ast.unparse(fn) if fn is not m.tree else ""
        if any(g in src for g in _GUARDS):
            continue
        yield Hit(call, f"`{name}` filled with -inf under a mask that is not causal, then a softmax: a row with "
                        "every entry masked (all padding) gives 0/0 = NaN; fill with torch.finfo(dtype).min")

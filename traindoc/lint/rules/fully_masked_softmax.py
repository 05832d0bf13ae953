"""TD542 fully-masked-softmax: scores filled with -inf under a mask that is not causal, then a
softmax, with nothing guarding a row where every entry is masked."""

from __future__ import annotations

import ast
import re

from .. import names as N
from ..registry import Hit, lint_rule
from ..source import may_be, text
from .softmax_over_batch_dim import _assigned_name, _enclosing_function
from ..walk import walk

# a causal / look-ahead mask always leaves the diagonal visible: no row is ever all -inf
_CAUSAL = re.compile(r"tril|triu|causal|subsequent|future|look_?ahead|nopeak|no_peek|square|diag|eye|\bbias\b"
                     # query positions compared with (or minus) key positions (q_pos < k_pos, a
                     # sliding window on q_pos - k_pos): the diagonal stays visible
                     r"|pos\w*\W[^<>]*[<>][^<>]*pos|pos\w*\W[^<>-]*-[^<>]*pos", re.I)
_GUARDS = ("nan_to_num", "isnan", "isfinite")


def _softmaxish(name: str) -> bool:
    return "softmax" in name.lower()


def _on_self(call: ast.Call) -> bool:
    """``self.sm(x)``: a module of the class, which may be an ``nn.Softmax`` by any name."""
    f = call.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self"


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
    used = {n.id for n in walk(mask) if isinstance(n, ast.Name)}
    seen: set[int] = set()
    for _ in range(3):  # and what those names are built from (diff = q_pos - k_pos; mask = diff < 0)
        more = set()
        for node in walk(fn):
            if isinstance(node, ast.Assign) and id(node) not in seen \
                    and any(isinstance(t, ast.Name) and t.id in used for t in node.targets):
                seen.add(id(node))
                parts.append(ast.unparse(node.value))
                more |= _built_from(node.value)
        if not more - used:
            break
        used |= more
    # a mask passed in (`def forward(self, x, mask)`): what the file binds to that name elsewhere
    # (`mask = torch.triu(...)` in the model's forward, then `block(x, mask)`)
    params = {a.arg for a in fn.args.args} if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else set()
    for node in walk(m.tree) if used & params else ():
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in used & params for t in node.targets):
            parts.append(ast.unparse(node.value))
    # a mask kept on the module (`self.register_buffer("mask", torch.triu(...))` in __init__,
    # then `self.mask.bool()[:n, :n]` in forward): what the class stores under that name
    attrs = set(re.findall(r"self\.(\w+)", " ".join(parts)))
    for node in walk(m.tree) if attrs else ():
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "register_buffer" \
                and len(node.args) >= 2 and isinstance(node.args[0], ast.Constant) and node.args[0].value in attrs:
            parts.append(ast.unparse(node.args[1]))
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and text(t) == f"self.{t.attr}"
                                                  and t.attr in attrs for t in node.targets):
            parts.append(ast.unparse(node.value))
    return " ".join(parts)


def _built_from(e: ast.AST) -> set[str]:
    """The names ``e`` computes with, less the arguments of the calls it makes (``diff < 0``:
    ``diff``; ``self.prepare_mask(mask, query.shape)``: nothing new, or the query and key
    projections would join the mask's text)."""
    out, todo = set(), [e]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Name) and n.id != "self":
            out.add(n.id)
        elif isinstance(n, ast.Call):
            todo.append(n.func)  # q_pos.unsqueeze(-1): the receiver, not the arguments
        else:
            todo.extend(ast.iter_child_nodes(n))
    return out


def _softmax_of(m, fn: ast.AST, name: str, after: int) -> ast.Call | None:
    """The first softmax (any spelling) of the plain name ``name`` in ``fn`` after line ``after``."""
    for node in walk(fn):
        if not (isinstance(node, ast.Call) and node.lineno >= after and (
                may_be(node, _softmaxish) or _on_self(node))):
            continue
        c = m.callee(node)
        f = node.func
        arg = node.args[0] if node.args else None
        if c[0] == "fn" and (c[1] in N.SOFTMAX or c[1] in N.LOG_SOFTMAX) or \
                c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "inst" and c[1][1] in N.SOFTMAX_MODULES:
            if _is_scores(arg, name):
                return node  # F.softmax(attn, -1); self.softmax = nn.Softmax(dim=2) ... self.softmax(attn)
        elif c[0] == "meth" and c[1] in ("softmax", "log_softmax") and isinstance(f, ast.Attribute) \
                and _is_scores(f.value, name):
            return node
    return None


def _is_scores(e: ast.AST | None, name: str) -> bool:
    """``e`` is the filled scores ``name``, or them shifted or scaled (``scores - scores.max()``,
    ``attn / tau``): a row of -inf stays -inf, and its softmax 0/0."""
    while isinstance(e, ast.BinOp) and type(e.op) in (ast.Sub, ast.Add, ast.Mult, ast.Div):
        e = e.left
    return isinstance(e, ast.Name) and e.id == name


@lint_rule(
    "fully-masked-softmax", "TD542", "warning",
    "scores filled with -inf under a padding-style mask (not causal), then a softmax: a row whose "
    "every entry is masked (an all-padding sequence) is exp(-inf)/sum = 0/0 = NaN",
    needles=[("masked_fill", "log()"), ("inf", "mask"), ("softmax", "Softmax")],
    fix="fill with torch.finfo(scores.dtype).min instead of -inf, or zero the fully masked rows after the "
        "softmax (torch.where(mask.any(-1, keepdim=True), attn, 0))",
    confirm="run one batch that holds an all-padding sequence: the attention weights of its rows are NaN",
)
def check(m):
    """What it detects: `s = s.masked_fill(mask, float("-inf"))` (any -inf spelling, in place
    or not) whose result reaches a softmax in the same function, where the mask is not a
    causal one (neither the mask expression nor the assignment of the names it uses in that
    function mentions tril/triu/causal/subsequent/future, or nanoGPT's `bias` buffer) and the
    function does not guard against NaN (`nan_to_num`, `isnan`, `isfinite`). Also in place
    through `.data` (`attn.data.masked_fill_(mask, -inf)`), with the softmax a module
    (`self.softmax = nn.Softmax(dim=-1)`), and the same fill spelled as the log of a mask
    added to the scores (`v = v + mask.float().log()`, then a softmax of `v`). The line is the
    softmax, where the NaN appears (independent labellers of the recall corpora pointed there
    7 times in 11; the message names the fill's line and cites it as evidence), or the assignment
    that adds the log.

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
        recv = f.value.value if isinstance(f.value, ast.Attribute) and f.value.attr == "data" else f.value
        name = (recv.id if f.attr == "masked_fill_" and isinstance(recv, ast.Name)
                else _assigned_name(m, call))  # attn.data.masked_fill_(...) fills attn
        sm = _softmax_of(m, fn, name, call.lineno) if name is not None else None
        if sm is None:
            continue
        src = ast.unparse(fn) if fn is not m.tree else ""
        if any(g in src for g in _GUARDS):
            continue
        yield Hit(sm, f"softmax of `{name}`, filled with -inf on line {call.lineno} under a mask that is not causal: "
                      "a row with every entry masked (all padding) gives 0/0 = NaN; fill with torch.finfo(dtype).min",
                  related=((call, "the -inf fill (the line the fix changes)"),))
    yield from _log_masks(m)


def _log_masks(m):
    """``v = v + mask.float().log()``, then a softmax of ``v``: adding the log of a 0/1 mask is
    the same -inf fill (AllenNLP's old ``masked_log_softmax``)."""
    for site in m.w.calls:
        call = site.node
        f = call.func
        if not (isinstance(f, ast.Attribute) and f.attr == "log" and not call.args or
                m.qualname(f) == "torch.log" and len(call.args) == 1):
            continue
        inner = call.args[0] if call.args else f.value
        cast = False  # log(keep.float()): a bool or 0/1 tensor cast to take its log
        while isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and not inner.args \
                and inner.func.attr in ("float", "double", "half", "to", "type_as"):
            inner, cast = inner.func.value, True
        if not (cast or m.kind(inner) == "mask" or "mask" in ast.unparse(inner).lower()):
            continue
        fn = _enclosing_function(m, call) or m.tree
        stmt = next((n for n in walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
                     and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.BinOp)
                     and type(n.value.op) is ast.Add and any(x is call for x in walk(n.value))), None)
        if stmt is None or _CAUSAL.search(ast.unparse(inner)):
            continue
        name = stmt.targets[0].id
        if _softmax_of(m, fn, name, stmt.lineno) is None:
            continue
        yield Hit(stmt, f"`{name}` gets the log of a 0/1 mask added (log 0 = -inf), then a softmax: a row whose "
                        "mask is all zeros gives 0/0 = NaN; fill with torch.finfo(dtype).min, or use a guarded "
                        "masked softmax")

"""TD541 softmax-over-batch-dim: a (log-)softmax over dim 0 whose result is then read per sample and class."""

from __future__ import annotations

import ast

from .. import names as N
from ..flow import single_def
from ..registry import Hit, lint_rule
from ..source import keyword, may_be
from ..walk import walk

_NAMES = frozenset({"softmax", "log_softmax"})


def _dim_zero(m, call: ast.Call) -> str | None:
    """"softmax"/"log_softmax" when ``call`` normalises over dim 0 (function or method
    spelling, or a call of an ``nn.Sequential`` that ends in ``nn.Softmax(dim=0)``)."""
    if isinstance(call.func, ast.Name):
        seq = single_def(m, call.func)
        if isinstance(seq, ast.Call) and m.qualname(seq.func) == "torch.nn.Sequential" and seq.args:
            last = seq.args[-1]
            q = m.qualname(last.func) if isinstance(last, ast.Call) else None
            if q in ("torch.nn.Softmax", "torch.nn.LogSoftmax"):
                dim = keyword(last, "dim") or (last.args[0] if last.args else None)
                if isinstance(dim, ast.Constant) and dim.value == 0 and type(dim.value) is int:
                    return f"`{call.func.id}` (an nn.Sequential ending in {q.rsplit('.', 1)[-1]}(dim=0))"
    if not may_be(call, _NAMES):
        return None
    c = m.callee(call)
    if c[0] == "fn" and (c[1] in N.SOFTMAX or c[1] in N.LOG_SOFTMAX):
        which = "log_softmax" if c[1] in N.LOG_SOFTMAX else "softmax"
        dim = keyword(call, "dim")
        if dim is None and len(call.args) >= 2:
            dim = call.args[1]
    elif c[0] == "meth" and c[1] in _NAMES:
        which = c[1]
        dim = keyword(call, "dim")
        if dim is None and call.args:
            dim = call.args[0]
    else:
        return None
    return which if isinstance(dim, ast.Constant) and dim.value == 0 and type(dim.value) is int else None


def _per_sample_reads(m, scope: ast.AST, name: str):
    """Uses of ``name`` in ``scope`` that read one value per (sample, class), proof of a 2-D
    tensor: ``name.gather(1, ...)``, ``torch.gather(name, 1, ...)``, ``name[rows, cols]``."""
    for node in walk(scope):
        if isinstance(node, ast.Call):
            f = node.func
            dim = node.args[0] if node.args else keyword(node, "dim")  # x.gather(1, i), x.gather(dim=1, index=i)
            if (isinstance(f, ast.Attribute) and f.attr == "gather" and isinstance(f.value, ast.Name)
                    and f.value.id == name and isinstance(dim, ast.Constant) and dim.value in (1, -1)):
                yield node
            elif (isinstance(f, ast.Attribute) and f.attr == "gather" and len(node.args) >= 2
                  and isinstance(node.args[0], ast.Name) and node.args[0].id == name
                  and isinstance(node.args[1], ast.Constant) and node.args[1].value in (1, -1)):
                yield node
        elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name
              and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2
              and not any(isinstance(e, ast.Slice) for e in node.slice.elts)):
            yield node


@lint_rule(
    "softmax-over-batch-dim", "TD541", "error",
    "a softmax or log_softmax over dim 0 (the batch) whose result is then read per sample and class "
    "(gather along dim 1, [rows, targets])",
    needles=[("softmax", "Softmax")],
    fix="normalise over the class dimension: F.log_softmax(logits, dim=1) (or dim=-1)",
    confirm="sum the probabilities of one sample over the classes: they do not add up to 1",
)
def check(m):
    """What it detects: `F.softmax(x, 0)`, `F.log_softmax(x, dim=0)`, `x.log_softmax(0)`
    (any import spelling) whose result is picked per sample and class in the same function:
    `p.gather(1, target)`, `torch.gather(p, 1, target)`, `p[torch.arange(n), y]` (reads that
    prove a 2-D tensor). A softmax over dim 0 used another way (attention weights over a
    sequence-first axis, one sample's 1-D logits passed to `nll_loss`) is not flagged.

    Why it happens: on a (batch, classes) tensor, dim 0 normalises each class over
    the samples of the batch: a sample's "log-probabilities" then depend on the other
    samples and do not sum to 1 over its classes, so the loss rewards making one sample's
    logit large relative to the others in its batch rather than the right class relative
    to the wrong ones. The loss still falls a little, accuracy stays poor, and nothing
    raises an error (cause `loss-mismatch`). A classic in hand-written focal and margin
    losses, where the dim was copied from a 1-D example.

    Example:
        logpt = F.log_softmax(output, 0)                 # over the batch
        logpt = logpt.gather(1, target.view(-1, 1))      # read per sample and class

    How to fix:
        logpt = F.log_softmax(output, dim=1)             # over the classes
    """
    for site in m.w.calls:
        call = site.node
        which = _dim_zero(m, call)
        if which is None:
            continue
        # only a 2-D read proves dim 0 is the batch: nll_loss(F.log_softmax(logits, 0), a) on
        # one sample's 1-D logits (REINFORCE) is right, so a loss's input alone is not flagged
        target = _assigned_name(m, call)
        fn = _enclosing_function(m, call) or m.tree  # a script's top level is a scope too
        if target is None:
            continue
        use = next((u for u in _per_sample_reads(m, fn, target) if u.lineno >= call.lineno), None)
        if use is not None:
            yield Hit(call, f"{which} over dim 0 (the batch), then `{target}` is read per sample and class (line "
                            f"{use.lineno}): each sample's values are normalised across the batch, not over its "
                            "classes; use dim=1 (or -1)")


def _assigned_name(m, call: ast.Call) -> str | None:
    """The plain name ``call``'s value is assigned to (``v = F.log_softmax(x, 0)``), else None."""
    for node in walk(_enclosing_function(m, call) or m.tree):
        if isinstance(node, ast.Assign) and node.value is call and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            return node.targets[0].id
    return None


def _enclosing_function(m, node: ast.AST) -> ast.AST | None:
    """The innermost function definition containing ``node`` (memoised per file)."""
    spans = m.memo.get("td541-fns")
    if spans is None:
        spans = m.memo["td541-fns"] = [n for n in walk(m.tree)
                                       if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    best = None
    for fn in spans:
        if fn.lineno <= node.lineno <= (fn.end_lineno or fn.lineno):
            if best is None or fn.lineno >= best.lineno:
                best = fn
    return best

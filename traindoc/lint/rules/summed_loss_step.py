"""TD510 summed-loss-step: ``reduction="sum"`` with SGD, whose step grows with the batch size."""

from __future__ import annotations

import ast

from .. import names as N
from ..grad_mode import eval_context
from ..registry import Hit, lint_rule
from ..walk import walk


@lint_rule(
    "summed-loss-step", "TD510", "warning",
    "a reduction='sum' loss with an optimizer whose step is proportional to the gradient (SGD)",
    needles=[("sum", "size_average"), ("SGD",)],
    fix="use reduction='mean' (or divide the summed loss by the number of elements/tokens), "
        "or scale the learning rate by 1/batch_size explicitly",
    confirm="double the batch size: with a summed loss and SGD the loss diverges or oscillates where it did not",
)
def check(m):
    """What it detects: a loss created or called with `reduction="sum"` (or the old
    `size_average=False`) in a file that builds `torch.optim.SGD` (or ASGD), when the
    rule cannot see the loss being divided by a count afterwards (`loss / x.size(0)`,
    `loss /= n_tokens`), and not in evaluation code (under `torch.no_grad()` or
    `inference_mode`, or in a function named like test/eval/validate), where no step
    is taken on it. Adam-type optimizers (Adam, AdamW, RMSprop, Adagrad, ...)
    divide by a running estimate of the gradient's scale, so a constant factor on the
    loss barely changes their step; they are not flagged.

    Why it happens: SGD's update is lr x gradient. A summed loss's gradient
    is the sum over the batch (and over tokens or pixels), so it grows linearly with the
    batch size and the sequence length: the effective learning rate is lr x N. A learning
    rate tuned for one batch size diverges at a larger one, and variable-length batches
    get steps of very different sizes (cause `loss-reduction`, then `lr-too-high`).

    Example:
        criterion = nn.MSELoss(reduction="sum")
        opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        loss = criterion(model(x), y)                    # step ~ 0.01 * batch_size

    How to fix:
        criterion = nn.MSELoss()                         # reduction="mean"
        # or: loss = criterion(model(x), y) / x.size(0)   (per-token losses: / n_tokens)
    """
    opt = next((s.node for s in m.w.calls if m.callee(s.node) in _SGD), None)
    if opt is None:
        return
    # a summed loss in evaluation code (under no_grad, in a test/eval function) takes no step
    sum_nodes = [s.node for s in m.w.calls if _summed(m, s.node) and not eval_context(m, s.ctx)]
    if not sum_nodes:
        return
    divided = _divided(m)
    opt_name = m.callee(opt)[1].rsplit(".", 1)[-1]
    for node in sum_nodes:
        if id(node) in divided or _uses_divided(m, node, divided):
            continue
        yield Hit(node, f"reduction='sum' with {opt_name} (line {opt.lineno}): SGD's step is lr x gradient and a "
                        "summed loss's gradient grows with the batch size (and sequence length), so the "
                        "effective learning rate does too; use reduction='mean' or divide by the count")


_SGD = [("fn", q) for q in N.LOSS_SCALED_OPTIMIZERS]


def _summed(m, call: ast.Call) -> bool:
    c = m.callee(call)
    if c[0] != "fn":
        return False
    q = c[1]
    if not (q in N.LOSS_FNS or q.startswith("torch.nn.") and q.endswith("Loss")):
        return False
    for k in call.keywords:
        if k.arg == "reduction" and isinstance(k.value, ast.Constant) and k.value.value == "sum":
            return True
        if k.arg == "size_average" and isinstance(k.value, ast.Constant) and k.value.value is False:
            return True
    return False


def _divided(m) -> set[int]:
    """ids of loss values that are divided later: ``call / n``, ``name / n``, ``name /= n``."""
    out: set[int] = set()
    for s in m.w.divs:
        out.update(_origins(m, s.node.left))
    for n in walk(m.tree):
        if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Div) and isinstance(n.target, ast.Name):
            out.update(id(x) for x in _assigned(m, n.target.id))
    return out


def _origins(m, e) -> list[int]:
    out = [id(e)]
    if isinstance(e, ast.Name):
        out.extend(id(d) for d in (m.defs(e) or ()) if isinstance(d, ast.AST))
    return out


def _assigned(m, name: str) -> list:
    """Every value assigned to ``name`` anywhere in the file (for ``name /= n``)."""
    vals = []
    for n in walk(m.tree):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
            vals.append(n.value)
    return vals


def _uses_divided(m, ctor: ast.Call, divided: set[int]) -> bool:
    """A summed loss *module* is fine when one of its calls' results is divided."""
    for s in m.w.calls:
        f = s.node.func
        defs = ()
        if isinstance(f, ast.Name):
            defs = m.defs(f) or ()
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self":
            defs = tuple(v for vals in (m.w.self_attrs.get((c, f.attr), []) for c in m.w.classes) for v in vals)
        if any(d is ctor for d in defs) and id(s.node) in divided:
            return True
    return False

"""TD544 optimizer-rebuilt-each-step: a stateful optimizer built anew for every training step."""

from __future__ import annotations

import ast

from ..registry import Hit, lint_rule
from ..source import text
from ..training import is_backward

# Optimizers whose step depends on state kept across steps (moments, momentum, accumulators):
# rebuilt every step they restart from zero. Plain SGD without momentum keeps none.
_STATELESS = frozenset({"torch.optim.SGD"})


@lint_rule(
    "optimizer-rebuilt-each-step", "TD544", "warning",
    "a stateful optimizer (Adam, RMSprop, SGD with momentum, ...) built anew for every training step, "
    "so its moments or momentum restart from zero at each step",
    needles=[("optim",), ("step",)],
    fix="build the optimizer once, before the loop (in __init__, not in a @property), and reuse it",
    confirm="print id(optimizer) at two steps: it differs; or len(optimizer.state) before each step: always 0",
)
def check(m):
    """What it detects: a `torch.optim` optimizer other than plain SGD (or SGD given a
    `momentum`) built where every training step builds it again: a `@property` of a class
    that returns a new optimizer and is stepped as `model.optimizer.step()` (each access is a
    new object; eat_pytorch_in_20_days' mid-level API chapter), or a construction inside a
    loop whose own body (not a nested loop's) calls `backward()`. The line is the
    construction. An optimizer rebuilt once per epoch (built in the epoch loop, the backward in
    the batch loop inside it) is a deliberate rate change and is not reported.

    Why it happens: a property looks like an attribute, and building the optimizer next to
    the step it serves looks tidy. But Adam's update is m / sqrt(v) from running moments:
    from a fresh state the first step is lr times the sign of each gradient, whatever its
    size, so the run becomes sign descent at the base rate, without momentum; momentum SGD
    loses its momentum, and Adagrad's accumulators restart. Learning is slower and noisier
    and nothing errs. Under `traindoc run` the monitor counts the rebuilds (meta
    `optimizer_rebuilt`).

    Example:
        class Net(nn.Module):
            @property
            def optimizer(self):
                return torch.optim.Adam(self.parameters(), lr=1e-3)
        ...
        loss.backward()
        model.optimizer.step()

    How to fix:
        class Net(nn.Module):
            def __init__(self):
                ...
                self.optimizer = torch.optim.Adam(self.parameters(), lr=1e-3)
    """
    props = _optimizer_properties(m)
    if props:
        stepped = {c.func.value.attr for c in _calls(m) if isinstance(c.func, ast.Attribute)
                   and c.func.attr == "step" and isinstance(c.func.value, ast.Attribute)}
        for name, ctor in props.items():
            if name in stepped:
                yield Hit(ctor, f"`{name}` is a @property that builds a new {_short(m, ctor)} at every access: "
                                f"`.{name}.step()` steps a fresh one each time, its state (moments, momentum) "
                                "always zero; build it once in __init__")
    for site in m.w.calls:
        call = site.node
        if not site.ctx.loops or not _stateful(m, call):
            continue
        loop = site.ctx.loops[-1]
        if _backward_in_body(m, loop):
            yield Hit(call, f"a new {_short(m, call)} is built inside the loop on line {loop.lineno}, which calls "
                            "backward() on every pass: each step starts from a fresh state (moments, momentum at "
                            "zero); build it once before the loop")


def _calls(m):
    return (s.node for s in m.w.calls)


def _stateful(m, call: ast.Call) -> bool:
    q = m.qualname(call.func) or ""
    if not q.startswith("torch.optim.") or q.count(".") != 2 or not q.rsplit(".", 1)[1][:1].isupper():
        return False  # torch.optim.lr_scheduler.X, torch.optim.Optimizer subclasses of the file
    if q.endswith(("Optimizer", "LBFGS")):
        return False
    mom = next((k.value for k in call.keywords if k.arg == "momentum"), None)
    plain = mom is None or isinstance(mom, ast.Constant) and not mom.value
    return not (q in _STATELESS and plain)


def _optimizer_properties(m) -> dict[str, ast.Call]:
    """Property name -> the optimizer construction it returns (``@property def optimizer``)."""
    out: dict[str, ast.Call] = {}
    for fns in m.w.functions.values():
        for fn in fns:
            if not any(text(d) == "property" for d in fn.decorator_list):
                continue  # (a cached_property builds it once: fine)
            for r in m.w.returns.get(id(fn)) or ():
                if isinstance(r, ast.Call) and _stateful(m, r):
                    out[fn.name] = r
    return out


def _backward_in_body(m, loop) -> bool:
    """``loop``'s own body (not a loop nested in it) calls backward()."""
    todo = list(loop.body)
    while todo:
        n = todo.pop()
        if isinstance(n, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(n, ast.Call) and is_backward(m, n):
            return True
        todo.extend(ast.iter_child_nodes(n))
    return False


def _short(m, call: ast.Call) -> str:
    return (m.qualname(call.func) or text(call.func)).rsplit(".", 1)[-1]


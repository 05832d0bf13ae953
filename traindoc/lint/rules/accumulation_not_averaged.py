"""TD523 accumulation-not-averaged: gradient accumulation that sums the micro-batch losses."""

from __future__ import annotations

import ast

from ..flow import calls_index, local_function
from ..registry import Hit, lint_rule
from ..source import segment, text
from ..training import backward_target, is_backward, is_clear, is_step
from ..walk import walk


@lint_rule(
    "accumulation-not-averaged", "TD523", "warning",
    "gradient accumulation (step every k iterations) without dividing the loss by k: the gradient is k times too large",
    needles=[("backward",), ("%", "+= 1"), ("step",)],
    fix="divide the loss by the number of accumulation steps before backward: (loss / accum_steps).backward()",
    confirm="compare the gradient norm after k micro-batches with the norm of one full batch: it is k times larger",
)
def check(m):
    """What it detects: a loop that calls `backward()` on every iteration but steps the
    optimizer only under an `if` whose test uses a modulo (`if (i + 1) % accum == 0:`) or
    a counter of its own (`n += 1` every iteration, `if n >= accum:` that resets `n = 0`),
    and clears the gradients only there too (gradient accumulation), while nothing in the
    loop divides the loss: no `loss / accum`, `loss /= accum`, no division by the same
    quantity as the modulo (in the loop or in a same-file function it calls). `accelerator.backward` (which divides
    itself) is not flagged.

    Why it happens: `backward()` adds into `.grad`, so after k micro-batches the
    gradient is the sum of k batch means, k times the gradient of the large batch the
    accumulation is meant to emulate. With SGD that is a k-times larger learning rate;
    with Adam the clip threshold, weight decay balance and epsilon all change, and
    changing k changes the run (cause `lr-too-high`, `loss-reduction`).

    Example:
        for i, (x, y) in enumerate(loader):
            loss = criterion(model(x), y)
            loss.backward()                              # sums k gradients
            if (i + 1) % accum_steps == 0:
                optimizer.step(); optimizer.zero_grad()

    How to fix:
            loss = criterion(model(x), y) / accum_steps
            loss.backward()
    """
    by_loop = calls_index(m)[0]
    for site in m.w.loops:
        loop = site.node
        own = [s.node for s in by_loop.get(id(loop), ()) if s.ctx.loops[-1] is loop]
        backs = [c for c in own if is_backward(m, c)]
        steps = [c for c in own if is_step(m, c)]
        if not backs or not steps:
            continue
        seg = segment(m, loop)
        if b"%" not in seg and b"+= 1" not in seg:
            continue
        gates = [n for n in walk(loop) if isinstance(n, ast.If) and (_mod(n.test) or _counter(loop, n))
                 and any(_inside(n, s) for s in steps)]
        if not gates:
            continue
        if all(any(_inside(g, b) for g in gates) for b in backs):
            continue  # backward only under the gate: no accumulation
        if any(is_clear(m, c) and not any(_inside(g, c) for g in gates) for c in own):
            continue  # cleared every iteration: not accumulating
        divisors = {text(x) or ast.dump(x) for g in gates for x in _mod_rhs(g.test) + _counter(loop, g)}
        for b in backs:
            if any(_inside(g, b) for g in gates) or isinstance(b.func, ast.Attribute) and \
                    "accelerator" in text(b.func.value):
                continue
            tgt = backward_target(b)
            if tgt is None or _divided(m, loop, tgt, divisors) or _helper_divides(m, own, divisors):
                continue
            yield Hit(b, f"backward() every iteration but the optimizer steps only every k iterations (line "
                         f"{gates[0].lineno}) and the loss is not divided by k: the accumulated gradient is k times "
                         "too large; divide the loss by the accumulation steps")


def _mod(test) -> bool:
    return any(isinstance(n, ast.BinOp) and type(n.op) is ast.Mod for n in walk(test))


def _counter(loop, gate: ast.If) -> list:
    """``[k]`` when ``gate`` is ``if n >= k:`` (or ``==``) on a counter the loop increments
    (``n += 1``) and the gate resets (``n = 0``): accumulation counted by hand; else []."""
    t = gate.test
    if not (isinstance(t, ast.Compare) and len(t.ops) == 1 and type(t.ops[0]) in (ast.GtE, ast.Eq, ast.Gt)
            and isinstance(t.left, ast.Name)):
        return []
    n = t.left.id
    bumped = any(isinstance(x, ast.AugAssign) and type(x.op) is ast.Add and isinstance(x.target, ast.Name)
                 and x.target.id == n and isinstance(x.value, ast.Constant) and x.value.value == 1
                 for x in walk(loop))
    reset = any(isinstance(x, ast.Assign) and any(isinstance(y, ast.Name) and y.id == n for y in x.targets)
                and isinstance(x.value, ast.Constant) and x.value.value == 0 for b in gate.body for x in walk(b))
    return [t.comparators[0]] if bumped and reset else []


def _mod_rhs(test) -> list:
    return [n.right for n in walk(test) if isinstance(n, ast.BinOp) and type(n.op) is ast.Mod]


def _inside(stmt: ast.If, node) -> bool:
    return any(x is node for b in stmt.body for x in walk(b))


def _helper_divides(m, calls, divisors: set) -> bool:
    """A same-file function called in the loop divides by the accumulation count (a loss helper)."""
    for c in calls:
        fn = local_function(m, c)
        if fn is not None and any(isinstance(n, ast.BinOp) and type(n.op) is ast.Div
                                  and (text(n.right) or ast.dump(n.right)) in divisors for n in walk(fn)):
            return True
    return False


def _divided(m, loop, tgt, divisors: set) -> bool:
    """The loop divides the loss: ``(loss / k).backward()``, ``loss / k``, ``loss /= k``,
    ``loss.div(k)``, or anything divided by the modulo's right-hand side."""
    if isinstance(tgt, ast.BinOp) and type(tgt.op) is ast.Div:
        return True
    # ``criterion(out, y).backward()``: no name to divide later (its inputs are not the loss)
    names = set() if isinstance(tgt, ast.Call) else {n.id for n in walk(tgt) if isinstance(n, ast.Name)}
    for n in walk(loop):
        if isinstance(n, ast.BinOp) and type(n.op) is ast.Div:
            if (text(n.right) or ast.dump(n.right)) in divisors:
                return True
            if any(isinstance(x, ast.Name) and x.id in names for x in walk(n.left)):
                return True
        elif isinstance(n, ast.AugAssign) and type(n.op) in (ast.Div, ast.Mult) and isinstance(n.target, ast.Name) \
                and n.target.id in names:
            return True
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("div", "div_") \
                and any(isinstance(x, ast.Name) and x.id in names for x in walk(n.func.value)):
            return True
    return False

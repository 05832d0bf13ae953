"""TD506 gradients-never-cleared: a loop with backward() and an optimizer step but no zero_grad."""

from __future__ import annotations

import ast

from ..patterns import is_backward, is_step, text
from ..registry import Hit, lint_rule

_CLEAR_METHODS = frozenset({"zero_grad", "clear_grad", "zero_grad_"})
_GRAD_RESET = frozenset({"zero_", "fill_", "mul_", "detach_", "requires_grad_"})


@lint_rule(
    "gradients-never-cleared", "TD506", "error",
    "a loop calls backward() and an optimizer step but never clears the gradients, so they add up across steps",
    needles=[("backward",), ("step",)],
    fix="call optimizer.zero_grad(set_to_none=True) after each optimizer step (with gradient accumulation: "
        "right after the step inside the `if (i + 1) % accum == 0:` block)",
    confirm="print a parameter's .grad norm for three steps on the same batch: it doubles and triples",
)
def check(m):
    """What it detects: the innermost loop that calls `backward()` (also
    `scaler.scale(loss).backward()`, `accelerator.backward(loss)`, `manual_backward`) and an
    optimizer step (`opt.step()`, `scaler.step(opt)`), directly or through functions and
    methods of the same file that it calls, but never clears gradients: no
    `zero_grad()` on any optimizer or module (with or without `set_to_none`), no
    `p.grad = None`, no `p.grad.zero_()`, and no call of a helper whose name says it zeroes
    gradients. Gradient accumulation (`if (i + 1) % k == 0: step(); zero_grad()`) is
    recognised as correct; accumulation that never clears is the bug.

    Why it breaks training: `backward()` adds into `.grad`. Without clearing, the gradient
    at step t is the sum of all gradients so far, so the effective learning rate grows
    linearly with the step count and the update direction is dominated by old batches:
    the loss falls at first, then oscillates and diverges (cause `missing-zero-grad`).

    Example:
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()                                   # .grad keeps growing

    Instead:
        for i, (x, y) in enumerate(loader):
            (F.cross_entropy(model(x), y) / accum).backward()
            if (i + 1) % accum == 0:                     # accum = 1 without accumulation
                opt.step()
                opt.zero_grad(set_to_none=True)
    """
    summaries: dict[int, tuple] = {}
    for site in m.w.loops:
        back, steps, clears = _summary(m, site.node, summaries, 0)
        if back and steps and not clears:
            step = min(steps, key=lambda n: (n.lineno, n.col_offset))
            b = min(back, key=lambda n: (n.lineno, n.col_offset))
            acc = " (with gradient accumulation, clear them right after the step)" if _conditional(site.node, step) else ""
            yield Hit(step, f"the loop on line {site.node.lineno} calls backward() (line {b.lineno}) and an optimizer "
                            f"step but never clears gradients: .grad adds up across iterations{acc}; "
                            "call zero_grad(set_to_none=True) after the step")


def _summary(m, node: ast.AST, memo: dict, depth: int) -> tuple[list, list, bool]:
    """(backward calls, step calls, clears?) reachable from ``node``'s body."""
    key = id(node)
    if key in memo:
        return memo[key]
    memo[key] = ([], [], False)  # a recursive call sees "nothing yet"
    back: list = []
    steps: list = []
    clears = False
    body = node.body + getattr(node, "orelse", []) if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) else node.body
    for stmt in body:
        for n in ast.walk(stmt):
            t = type(n)
            if t is ast.Call:
                if is_backward(m, n):
                    back.append(n)
                elif is_step(m, n):
                    steps.append(n)
                elif _clears(n):
                    clears = True
                elif depth < 3:
                    fn = _local_function(m, n)
                    if fn is not None:
                        b, s, c = _summary(m, fn, memo, depth + 1)
                        back.extend(b)
                        steps.extend(s)
                        clears = clears or c
            elif t in (ast.Assign, ast.AugAssign):
                targets = n.targets if t is ast.Assign else [n.target]
                if any(".grad" in "." + text(_base(x)) for x in targets):
                    clears = True  # p.grad = None, p.grad[...] = 0, p.grad *= 0
    memo[key] = (back, steps, clears)
    return memo[key]


def _clears(call: ast.Call) -> bool:
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if name in _CLEAR_METHODS:
        return True
    if isinstance(f, ast.Attribute) and name in _GRAD_RESET and "grad" in text(f.value).split("."):
        return True  # p.grad.zero_(), p.grad.data.zero_()
    low = name.lower()
    # a helper of another file we cannot read: trust its name (zero_grads, reset_grad, clear_gradients)
    return "zero" in low and "grad" in low or ("reset" in low or "clear" in low) and "grad" in low


def _local_function(m, call: ast.Call):
    c = m.callee(call)
    if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "func":
        return c[1][1]
    return None


def _base(e):
    while isinstance(e, ast.Subscript):
        e = e.value
    return e


def _conditional(loop: ast.AST, step: ast.AST) -> bool:
    """The step sits under an ``if`` inside the loop (the usual accumulation pattern)."""
    for n in ast.walk(loop):
        if isinstance(n, ast.If) and any(s is step for b in n.body for s in ast.walk(b)):
            return True
    return False

"""TD523 accumulation-not-averaged: gradient accumulation that sums the micro-batch losses."""

from __future__ import annotations

import ast

from ..flow import calls_index, local_function
from ..registry import Hit, lint_rule
from ..source import segment, short, text
from ..training import backward_target, is_backward, is_clear, is_step
from ..walk import walk


@lint_rule(
    "accumulation-not-averaged", "TD523", "warning",
    "gradient accumulation (step every k iterations) without dividing the loss by k: the gradient is k times too large",
    needles=[("backward",), ("%", "+=", "range("), ("step",)],
    fix="divide the loss by the number of accumulation steps before backward: (loss / accum_steps).backward()",
    confirm="compare the gradient norm after k micro-batches with the norm of one full batch: it is k times larger",
)
def check(m):
    """What it detects: a loop that calls `backward()` on every iteration but steps the
    optimizer only under an `if` whose test uses a modulo (`if (i + 1) % accum == 0:`,
    or after `if (i + 1) % accum != 0: continue`, or through a flag,
    `is_accumulating = (i + 1) % k != 0` ... `if not is_accumulating:`) or
    a counter of its own (`n += 1` every iteration, `if n >= accum:` that resets `n = 0`;
    also a step method run once per batch whose counter lives on `self`, or whose modulo
    reads its batch-index parameter: `if (batch_nb + 1) % self.accumulate == 0:`),
    and clears the gradients only there too (gradient accumulation), while nothing in the
    loop divides the loss: no `loss / accum`, `loss /= accum`, no division by the same
    quantity as the modulo (in the loop or in a same-file function it calls). `accelerator.backward` (which divides
    itself) is not flagged. Also the nested form: `for micro_step in range(k):` calling
    `backward()` with the optimizer step after that loop, and no division by `k`.

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
        yield from _judge(m, loop, own, attrs_only=False)
    # a step method called once per batch, its counter on self (`self.count += len(x)`,
    # `if self.count >= self.n_acc:`): the loop is the caller's, the state the object's
    by_func: dict[int, list] = {}
    for s in m.w.calls:
        if s.ctx.func is not None and not s.ctx.loops:
            by_func.setdefault(id(s.ctx.func), []).append(s.node)
    for fns in m.w.functions.values():
        for fn in fns:
            own = by_func.get(id(fn), ())
            if any(is_backward(m, c) for c in own) and b"self." in segment(m, fn):
                yield from _judge(m, fn, own, attrs_only=True)
    yield from _micro_loops(m, by_loop)


def _judge(m, loop, own: list, attrs_only: bool):
    """``loop`` (a loop, or a step method run once per batch) calls backward() on every pass
    and steps only under an accumulation gate, with the loss never divided."""
    backs = [c for c in own if is_backward(m, c)]
    steps = [c for c in own if is_step(m, c)]
    if not backs or not steps:
        return
    seg = segment(m, loop)
    if b"%" not in seg and b"+=" not in seg:
        return
    gates = [n for n in walk(loop) if isinstance(n, ast.If) and (not attrs_only and _mod(_flag(loop, n.test))
                                                                 or attrs_only and _param_mod(loop, n.test)
                                                                 or _counter(loop, n, attrs_only))
             and any(_inside(n, s) for s in steps)]
    gates += [] if attrs_only else _skips(loop, steps)
    if not gates:
        return
    if all(any(_inside(g, b) for g in gates) for b in backs):
        return  # backward only under the gate: no accumulation
    if any(is_clear(m, c) and not any(_inside(g, c) for g in gates) for c in own):
        return  # cleared every iteration: not accumulating
    divisors = {text(x) or ast.dump(x) for g in gates
                for x in _mod_rhs(_flag(loop, g.test)) + _counter(loop, g, attrs_only)}
    for b in backs:
        if any(_inside(g, b) for g in gates) or isinstance(b.func, ast.Attribute) and \
                "accelerator" in text(b.func.value):
            continue
        tgt = backward_target(b)
        if tgt is None or _divided(m, loop, tgt, divisors) or _helper_divides(m, own, divisors):
            continue
        if attrs_only and _caller_divides(m, loop, tgt, divisors):
            continue
        yield Hit(b, f"backward() every iteration but the optimizer steps only every k iterations (line "
                     f"{gates[0].lineno}) and the loss is not divided by k: the accumulated gradient is k times "
                     "too large; divide the loss by the accumulation steps", related=_computed(m, tgt, b))


def _micro_loops(m, by_loop):
    """``for micro_step in range(k): ...; loss.backward()`` with the optimizer step after the
    inner loop (nanoGPT's form of accumulation), and no division of the loss by ``k``."""
    for site in m.w.loops:
        loop = site.node
        it = loop.iter if isinstance(loop, ast.For) else None
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
                and len(it.args) == 1) or isinstance(it.args[0], ast.Constant):
            continue  # range(k) with k not a literal
        inner = [s.node for s in by_loop.get(id(loop), ())]
        backs = [c for c in inner if is_backward(m, c)]
        if not backs or any(is_step(m, c) or is_clear(m, c) for c in inner):
            continue
        after = [s.node for s in m.w.calls if s.ctx.func is site.ctx.func and s.node.lineno > loop.end_lineno
                 and is_step(m, s.node)]
        if not after:
            continue
        k = it.args[0]
        divisors = {text(k) or ast.dump(k)}
        if _grads_rescaled(site.ctx.func or m.tree, loop):
            continue  # p.grad.mul_(1.0 / k) after the loop (learn2learn's MAML examples)
        for b in backs:
            tgt = backward_target(b)
            if isinstance(b.func, ast.Attribute) and "accelerator" in text(b.func.value):
                continue
            if tgt is None or _divided(m, loop, tgt, divisors) or _helper_divides(m, inner, divisors):
                continue
            yield Hit(b, f"backward() on each of the `{short(k)}` micro-steps of the loop on line {loop.lineno}, one "
                         f"optimizer step after it (line {after[0].lineno}), and the loss is not divided by "
                         f"`{short(k)}`: the accumulated gradient is that many times too large",
                      related=_computed(m, tgt, b))


def _skips(loop, steps) -> list:
    """``if (i + 1) % k != 0: continue`` in the loop's body with the step after it: the
    statements after the skip are the gated ones. Returned as If-like gates (test = the
    skip's test, body = the statements after it) so that the checks above read both forms."""
    out = []
    body = loop.body
    for i, st in enumerate(body):
        if isinstance(st, ast.If) and _mod(st.test) and len(st.body) == 1 and isinstance(st.body[0], ast.Continue) \
                and not st.orelse:
            rest = body[i + 1:]
            gate = ast.If(test=st.test, body=rest, orelse=[])
            if any(_inside(gate, s) for s in steps):
                out.append(ast.copy_location(gate, st))
    return out


def _computed(m, tgt, back) -> tuple:
    """The line that computes the loss backward() receives (where the division belongs),
    as evidence, when it is a name bound once on another line."""
    if isinstance(tgt, ast.Call) and isinstance(tgt.func, ast.Attribute) and tgt.func.attr == "scale" and tgt.args:
        tgt = tgt.args[0]  # scaler.scale(loss).backward()
    d = m.defs(tgt) if isinstance(tgt, ast.Name) else None
    if d and len(d) == 1 and isinstance(d[0], ast.expr) and d[0].lineno != back.lineno:
        return ((d[0], "the loss, computed here without the division"),)
    return ()


def _flag(loop, test):
    """The test, or for ``if not is_accumulating:`` the expression its flag is bound to once in
    the loop (``is_accumulating = (i + 1) % k != 0``, Lightning Fabric's examples)."""
    if isinstance(test, ast.UnaryOp) and type(test.op) is ast.Not:
        test = test.operand
    if isinstance(test, ast.Name):
        vals = [x.value for x in walk(loop) if isinstance(x, ast.Assign) and len(x.targets) == 1
                and isinstance(x.targets[0], ast.Name) and x.targets[0].id == test.id]
        return vals[0] if len(vals) == 1 else test
    return test


def _mod(test) -> bool:
    return any(isinstance(n, ast.BinOp) and type(n.op) is ast.Mod for n in walk(test))


def _counter(loop, gate: ast.If, attrs_only: bool = False) -> list:
    """``[k]`` when ``gate`` is ``if n >= k:`` (or ``==``) on a counter the loop increments
    (``n += 1``, ``self.count += len(x)``) and the gate resets (``n = 0``): accumulation
    counted by hand; else []. ``attrs_only``: the counter must live on ``self``."""
    t = gate.test
    if not (isinstance(t, ast.Compare) and len(t.ops) == 1 and type(t.ops[0]) in (ast.GtE, ast.Eq, ast.Gt)
            and isinstance(t.left, (ast.Name, ast.Attribute))):
        return []
    n = text(t.left)
    if not n or attrs_only and not n.startswith("self."):
        return []
    bumped = any(isinstance(x, ast.AugAssign) and type(x.op) is ast.Add and text(x.target) == n for x in walk(loop))
    reset = any(isinstance(x, ast.Assign) and any(text(y) == n for y in x.targets)
                and isinstance(x.value, ast.Constant) and x.value.value == 0 for b in gate.body for x in walk(b))
    return [t.comparators[0]] if bumped and reset else []


def _param_mod(fn, test) -> bool:
    """``if (batch_idx + 1) % self.accum == 0:`` in a step method run once per batch, the
    batch counter one of its parameters (the caller's loop index)."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    args = {a.arg for a in fn.args.args + fn.args.kwonlyargs} - {"self"}
    return any(isinstance(n, ast.BinOp) and type(n.op) is ast.Mod
               and any(isinstance(x, ast.Name) and x.id in args for x in walk(n.left)) for n in walk(test))


def _mod_rhs(test) -> list:
    return [n.right for n in walk(test) if isinstance(n, ast.BinOp) and type(n.op) is ast.Mod]


def _inside(stmt: ast.If, node) -> bool:
    return any(x is node for b in stmt.body for x in walk(b))


def _caller_divides(m, fn, tgt, divisors: set) -> bool:
    """A step method handed its loss (``self._backward_step(loss, i)``, backward on the
    parameter or on ``scaler.scale(param)``) by a caller that divides by the accumulation
    count (``loss = criterion(out, y) / self.accum``)."""
    if isinstance(tgt, ast.Call) and isinstance(tgt.func, ast.Attribute) and tgt.func.attr == "scale" and tgt.args:
        tgt = tgt.args[0]
    params = {a.arg for a in getattr(getattr(fn, "args", None), "args", [])}
    if not (isinstance(tgt, ast.Name) and tgt.id in params):
        return False
    where = {id(s.node): s.ctx.func for s in m.w.calls}
    for c in m.call_sites(fn):
        scope = where.get(id(c))
        if scope is not None and any(isinstance(n, ast.BinOp) and type(n.op) is ast.Div
                                     and (text(n.right) or ast.dump(n.right)) in divisors for n in walk(scope)):
            return True
    return False


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


def _grads_rescaled(scope, loop) -> bool:
    """After ``loop``, the gradients themselves are scaled: ``p.grad.mul_(1 / k)``,
    ``p.grad.data.div_(k)``, ``p.grad /= k``."""
    for n in walk(scope):
        if getattr(n, "lineno", 0) <= loop.end_lineno:
            continue
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("mul_", "div_") \
                and "grad" in text(n.func.value).split("."):
            return True
        if isinstance(n, ast.AugAssign) and type(n.op) in (ast.Div, ast.Mult) and "grad" in text(n.target).split("."):
            return True
    return False

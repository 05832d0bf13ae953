"""TD506 gradients-never-cleared: a loop with backward() and an optimizer step but no zero_grad."""

from __future__ import annotations

import ast

from ..registry import Hit, lint_rule
from ..source import text
from ..training import is_backward, is_step, step_target
from ..walk import walk

_CLEAR_METHODS = frozenset({"zero_grad", "clear_grad", "zero_grad_"})
_GRAD_RESET = frozenset({"zero_", "fill_", "mul_", "detach_", "requires_grad_"})


@lint_rule(
    "gradients-never-cleared", "TD506", "error",
    "a loop calls backward() and an optimizer step but never clears the gradients, so they add up across steps",
    needles=[("backward",), ("step", ".grad")],
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
    gradients. An update written by hand from `.grad` (`w -= lr * w.grad`, a `sgd(params, lr)`
    helper of the file) counts as the step. Gradient accumulation (`if (i + 1) % k == 0: step(); zero_grad()`) is
    recognised as correct; accumulation that never clears is the bug. Lightning's `training_step`
    under manual optimization (`manual_backward`) counts as a loop body (the trainer loops), so
    a GAN module that clears `opt_g` but never `opt_d` is found. Also a loop whose only
    clear is in one branch of an `if`/`else` whose other branch steps too (`if use_amp:
    scaler.step(opt) else: opt.step(); opt.zero_grad()`): that path never clears.

    Why it happens: `backward()` adds into `.grad`. Without clearing, the gradient
    at step t is the sum of all gradients so far, so the effective learning rate grows
    linearly with the step count and the update direction is dominated by old batches:
    the loss falls at first, then oscillates and diverges (cause `missing-zero-grad`).

    Example:
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()                                   # .grad keeps growing

    How to fix:
        for i, (x, y) in enumerate(loader):
            (F.cross_entropy(model(x), y) / accum).backward()
            if (i + 1) % accum == 0:                     # accum = 1 without accumulation
                opt.step()
                opt.zero_grad(set_to_none=True)
    """
    ix = _Index(m)
    if not ix.any_backward:
        return
    for site in m.w.loops:
        loop = site.node
        back, steps, clears = ix.loop_summary(loop)
        if back and steps and not clears and not _assigns_grad(loop):
            step = min(steps, key=lambda n: (n.lineno, n.col_offset))
            b = min(back, key=lambda n: (n.lineno, n.col_offset))
            acc = " (with gradient accumulation, clear them right after the step)" if _conditional(loop, step) else ""
            yield Hit(step, f"the loop on line {loop.lineno} calls backward() (line {b.lineno}) and an optimizer "
                            f"step but never clears gradients: .grad adds up across iterations{acc}; "
                            "call zero_grad(set_to_none=True) after the step",
                      related=((b, "the backward() whose gradients add up"),))
        elif back and steps and clears and _branch_only(ix, loop) is not None:
            clear, step, test, there = _branch_only(ix, loop)
            lone_back = [(b, "the backward() on that path, whose gradients add up") for b in back if id(b) in there]
            yield Hit(clear, f"gradients are cleared only on one side of `if {ast.unparse(test)[:40]}:` (line {test.lineno}); "
                             f"the other side steps (`{text(step.func)}`, line {step.lineno}) and never clears, so "
                             "on that path .grad adds up across iterations; clear after every step (move the "
                             "zero_grad() out of the branch)",
                      related=((step, "the step whose path never clears"), *lone_back[:1]))
        elif back and steps and clears and not site.ctx.loops:
            yield from _uncleared_optimizer(m, ix, loop)
        elif back and not steps and not clears and not _assigns_grad(loop):
            upd = _manual_update(m, ix, loop)
            if upd is not None:
                b = min(back, key=lambda n: (n.lineno, n.col_offset))
                yield Hit(upd, f"the loop on line {loop.lineno} calls backward() (line {b.lineno}) and updates the "
                               "parameters by hand from their .grad but never clears it: .grad adds up across "
                               "iterations, so each update uses the sum of every gradient so far; set "
                               "p.grad = None (or p.grad.zero_()) after the update",
                          related=((b, "the backward() whose gradients add up"),))

    for fn in _step_methods(m):
        back, steps, clears = ix._func_summary(fn, 0)
        if back and steps and not clears and not _assigns_grad(fn):
            step = min(steps, key=lambda n: (n.lineno, n.col_offset))
            yield Hit(step, f"`{fn.name}` (Lightning runs it once per batch) calls backward and an optimizer step "
                            "but never clears gradients: .grad adds up across batches; call "
                            "opt.zero_grad() after the step (manual optimization does not clear them)")
        elif back and steps and clears:
            yield from _uncleared_optimizer(m, ix, fn)


def _step_methods(m):
    """Lightning's ``training_step`` under manual optimization (it calls ``manual_backward``):
    the trainer calls it once per batch, so its body is a loop body whose loop the file
    does not show. Methods already inside a loop of the file are judged with that loop."""
    for fn in m.w.functions.get("training_step", ()):
        if not m.w.func_ctx[id(fn)].loops and any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "manual_backward"
                for n in walk(fn)):
            yield fn


def _branch_only(ix, loop):
    """(a clear, a step, the if's test, ids of the nodes on the step's side) when every clear the loop makes is its own call in
    one branch of an ``if``/``else`` whose other branch steps the same optimizer without
    clearing: ``if use_amp: scaler.step(opt) else: opt.step(); opt.zero_grad()`` clears only
    without AMP. None when a clear happens elsewhere (a closure, a helper, ``p.grad = None``)
    or the branches step different optimizers (an alternating GAN)."""
    calls = ix.by_loop.get(id(loop), ())
    clears = [n for n in calls if ix.kind.get(id(n)) == "c"]
    steps = [n for n in calls if ix.kind.get(id(n)) == "s"]
    if not clears or not steps or ix.nested.get(id(loop)) or _helper_clears(ix, calls) or _assigns_grad(loop):
        return None
    for node in walk(loop):
        if not isinstance(node, ast.If) or not node.orelse:
            continue
        sides = [{id(x) for st in side for x in walk(st)} for side in (node.body, node.orelse)]
        for here, there in (sides, sides[::-1]):
            mine = {step_target(n) for n in steps if id(n) in here}
            lone = [n for n in steps if id(n) in there and step_target(n) in mine]
            if lone and all(id(c) in here for c in clears):
                return clears[0], lone[0], node.test, there
    return None


def _helper_clears(ix, calls) -> bool:
    """A helper of the file the loop calls (a step helper too) clears: where is not visible here."""
    for n in calls:
        if ix.kind.get(id(n)) in ("b", "c"):
            continue
        fn = _local_function(ix.m, n)
        if fn is not None and ix._func_summary(fn, 1)[2]:
            return True
    return False


def _manual_update(m, ix, loop):
    """A parameter update written by hand (``w -= lr * w.grad``, ``p.data.sub_(lr * p.grad)``)
    in the loop or in a function of this file that the loop calls (d2l's ``sgd(params, lr)``):
    the statement in the loop that performs it, or None. A helper that clears or assigns
    ``.grad`` itself is no finding (its summary says so, or ``_assigns_grad``)."""
    for n in walk(loop):
        if _updates_from_grad(n):
            return n
    for call in ix.by_loop.get(id(loop), ()):
        fn = _local_function(m, call)
        if fn is None or ix._func_summary(fn, 1)[2] or _assigns_grad(fn):
            continue
        if any(_updates_from_grad(n) for n in walk(fn)):
            return call
    return None


def _updates_from_grad(n) -> bool:
    if isinstance(n, ast.AugAssign) and isinstance(n.op, (ast.Sub, ast.Add)):
        value = n.value
    elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("sub_", "add_"):
        value = ast.Tuple(elts=[*n.args, *(k.value for k in n.keywords)])
    else:
        return False
    return any(isinstance(x, ast.Attribute) and x.attr == "grad" for x in ast.walk(value))


def _uncleared_optimizer(m, ix, loop):
    """Two optimizers stepped in the loop (a GAN's D and G, an encoder and a critic), only
    one of them ever cleared: ``opt_E.zero_grad()`` but never ``opt_D.zero_grad()`` nor
    ``D.zero_grad()``. Judged only where every clear is a visible ``X.zero_grad()`` in the
    loop itself (a helper that clears, ``p.grad = None``, could clear either). An optimizer
    passed in, whose model the file cannot name, is uncleared when every clear is another
    stepped optimizer's. The backward before the step is cited as evidence."""
    calls = ix.by_func.get(id(loop), ()) if isinstance(loop, ast.FunctionDef) else ix.by_loop.get(id(loop), ())
    steps = [n for n in calls if ix.kind.get(id(n)) == "s"]
    clears = [n for n in calls if ix.kind.get(id(n)) == "c"]
    where = f"`{loop.name}` (run once per batch)" if isinstance(loop, ast.FunctionDef) else f"the loop on line {loop.lineno}"
    if _assigns_grad(loop) or any(not (isinstance(c.func, ast.Attribute) and c.func.attr == "zero_grad")
                                  for c in clears):
        return
    if any(_local_function(m, n) is not None and ix._func_summary(_local_function(m, n), 1)[2] for n in calls):
        return
    cleared = {text(c.func.value) for c in clears}
    targets = {}
    for st in steps:
        t = step_target(st)
        if t and t not in targets:
            targets[t] = st
    if len(targets) < 2 or "" in cleared:
        return
    for t, st in targets.items():
        owner = _params_owner(m, st, t)
        unknown = owner is None and cleared <= set(targets)  # passed in; only other optimizers cleared
        if t in cleared or owner is None and not unknown or owner is not None and any(
                owner == c or owner.startswith(c + ".") for c in cleared):
            continue  # model.zero_grad() clears model.encoder's gradients too
        whose = f"the .grad of `{t}`'s parameters" if unknown else f"`{owner}`'s .grad"
        back = max((n for n in calls if ix.kind.get(id(n)) == "b" and n.lineno <= st.lineno),
                   key=lambda n: n.lineno, default=None)  # the backward that feeds this step
        yield Hit(st, f"`{t}` is stepped in {where} but never cleared: it clears "
                      f"{', '.join(sorted(f'`{c}`' for c in cleared))} only, so {whose} adds up across "
                      f"iterations; call {t}.zero_grad(set_to_none=True) after its step",
                  related=((back, "the backward() whose gradients add up"),) if back is not None else ())


def _params_owner(m, step, target: str):
    """The model whose ``.parameters()`` built the optimizer ``target`` (``Adam(D.parameters())``
    -> ``D``), or None when that cannot be read."""
    node = step.func.value if target == text(step.func.value) else (step.args[0] if step.args else None)
    if not isinstance(node, ast.Name):
        return None
    d = m.defs(node)
    if not (d and len(d) == 1 and isinstance(d[0], ast.Call) and d[0].args):
        return None
    a = d[0].args[0]
    if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr == "parameters":
        return text(a.func.value) or None
    return None


class _Index:
    """Calls grouped by the loop and the function they sit in (from the walker's index:
    no second walk of the tree), summarised as (backward calls, step calls, clears?)
    through calls of this file's functions, three levels deep."""

    def __init__(self, m) -> None:
        self.m = m
        self.by_loop: dict[int, list] = {}
        self.by_func: dict[int, list] = {}
        self.any_backward = False
        for s in m.w.calls:
            self.by_func.setdefault(id(s.ctx.func), []).append(s.node)
            for lp in s.ctx.loops:
                self.by_loop.setdefault(id(lp), []).append(s.node)
        self.nested: dict[int, list] = {}  # functions defined inside a loop (closures) run with it
        for fns in m.w.functions.values():
            for f in fns:
                for lp in m.w.func_ctx[id(f)].loops:
                    self.nested.setdefault(id(lp), []).append(f)
        self.kind: dict[int, str] = {}
        for s in m.w.calls:
            n = s.node
            k = "b" if is_backward(m, n) else "s" if is_step(m, n) else "c" if _clears(n) else ""
            if k:
                self.kind[id(n)] = k
                self.any_backward = self.any_backward or k == "b"
        self.memo: dict[int, tuple] = {}

    def loop_summary(self, loop) -> tuple[list, list, bool]:
        return self._summary(self.by_loop.get(id(loop), ()), self.nested.get(id(loop), ()), 0)

    def _func_summary(self, fn, depth: int) -> tuple[list, list, bool]:
        key = id(fn)
        if key not in self.memo:
            self.memo[key] = ([], [], False)  # a recursive call sees "nothing yet"
            nested = [f for fs in self.m.w.functions.values() for f in fs if self.m.w.func_ctx[id(f)].func is fn]
            self.memo[key] = self._summary(self.by_func.get(key, ()), nested, depth)
        return self.memo[key]

    def _summary(self, calls, funcs, depth: int) -> tuple[list, list, bool]:
        back: list = []
        steps: list = []
        clears = False
        todo = list(funcs)
        for n in calls:
            k = self.kind.get(id(n), "")
            if k == "b":
                back.append(n)
            elif k == "s":
                steps.append(n)
                # a step helper of this file (`self.optimizer_step(zero_grad=True)`) may clear
                fn = _local_function(self.m, n) if depth < 3 else None
                if fn is not None and self._func_summary(fn, depth + 1)[2] and _flag_allows(self.m, fn, n):
                    clears = True
            elif k == "c":
                clears = True
            elif depth < 3:
                fn = _local_function(self.m, n)
                if fn is not None:
                    todo.append(fn)
        for fn in todo:
            b, s, c = self._func_summary(fn, depth + 1)
            back.extend(b)
            steps.extend(s)
            clears = clears or c
        return back, steps, clears


def _assigns_grad(loop) -> bool:
    """``p.grad = None``, ``p.grad[...] = 0``, ``p.grad *= 0`` in the loop (only walked for a finding)."""
    for n in walk(loop):
        if isinstance(n, (ast.Assign, ast.AugAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(".grad" in "." + text(_base(x)) for x in targets):
                return True
    return False


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
    for n in walk(loop):
        if isinstance(n, ast.If) and any(s is step for b in n.body for s in walk(b)):
            return True
    return False


def _flag_allows(m, fn, call: ast.Call) -> bool:
    """Whether ``fn``'s clearing runs for this ``call``: False only when every clear in it
    sits under ``if FLAG:`` on one of its parameters and the call gives that parameter a
    false value (a literal, a module constant, or the default when it is not passed);
    anything the file does not settle counts as clearing."""
    guards = set()
    for n in walk(fn):
        if isinstance(n, ast.If) and isinstance(n.test, ast.Name):
            if any(isinstance(c, ast.Call) and _clears(c) for b in n.body for c in walk(b)):
                guards.add(n.test.id)
    clears = [c for c in walk(fn) if isinstance(c, ast.Call) and _clears(c)]
    if len(guards) != 1 or not clears:
        return True
    flag = next(iter(guards))
    guarded = {id(c) for n in walk(fn) if isinstance(n, ast.If) and isinstance(n.test, ast.Name)
               and n.test.id == flag for b in n.body for c in walk(b)}
    if any(id(c) not in guarded for c in clears):
        return True  # a clear outside the flag
    value = _argument(fn, call, flag)
    return True if value is None else bool(_constant(m, value, default=True))


def _argument(fn, call: ast.Call, name: str):
    """The expression ``call`` gives parameter ``name`` of ``fn`` (its default when not
    passed); None when ``name`` is not a parameter or has no default and is not passed."""
    a = fn.args
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    pos = [p.arg for p in (*a.posonlyargs, *a.args)]
    if name in pos:
        i = pos.index(name) - (1 if pos and pos[0] in ("self", "cls") and isinstance(call.func, ast.Attribute) else 0)
        if 0 <= i < len(call.args):
            return call.args[i]
        k = pos.index(name) - (len(pos) - len(a.defaults))
        return a.defaults[k] if 0 <= k < len(a.defaults) else None
    kwonly = [p.arg for p in a.kwonlyargs]
    if name in kwonly:
        return a.kw_defaults[kwonly.index(name)]
    return None


def _constant(m, e, default: bool) -> bool:
    """The truth of a literal or of a module-level name bound once to a literal; ``default``
    otherwise."""
    if isinstance(e, ast.Constant):
        return bool(e.value)
    if isinstance(e, ast.Name):
        vals = [s.value for s in m.tree.body if isinstance(s, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == e.id for t in s.targets)]
        if len(vals) == 1 and isinstance(vals[0], ast.Constant):
            return bool(vals[0].value)
    return default

"""TD511 grad-cleared-before-step: zero_grad() between backward() and the optimizer step."""

from __future__ import annotations

import ast
import re

from ..flow import calls_index, ordered_events
from ..registry import Hit, lint_rule
from ..source import segment, text
from ..training import is_backward, step_target, train_event
from ..walk import walk


@lint_rule(
    "grad-cleared-before-step", "TD511", "error",
    "the gradients are cleared between backward() and the optimizer step, so the step sees zero (or no) gradients",
    needles=[("backward",), ("step", "accumulate"), ("zero_grad", ".grad", "clear_grad")],
    fix="order each iteration as zero_grad(), backward(), step(): clear the gradients before the backward, "
        "never between the backward and the step",
    confirm="print a weight before and after the step: it does not change (only weight decay moves it)",
)
def check(m):
    """What it detects: a loop whose iteration, read in order (calls of the same file's
    functions included), clears the gradients after `backward()` and before the next
    optimizer step: `loss.backward(); optimizer.zero_grad(); optimizer.step()`, and the
    rotated spelling `optimizer.zero_grad(); optimizer.step(); loss.backward()` (the
    gradients of each backward are cleared before any step uses them). The clear must be
    on the optimizer that steps (or, for `model.zero_grad()`, the loop must step a single
    optimizer), so a GAN that clears one network's gradients between another's backward
    and step is not flagged. Only the calls at the loop's own level count (a nested loop,
    such as an inner adaptation loop, is checked on its own). `step(); zero_grad(); backward()` (one iteration late, but
    correct) is not flagged. Also accumulation undone: the optimizer steps only under a
    modulo gate (`if (i + 1) % k == 0: opt.step()`) while its gradients are cleared outside
    the gate on every iteration, or on every call of a function called per batch (a
    Lightning `training_step` with manual optimisation, an `update(batch)` method; flagged
    at the clear), the gate also spelt as a flag set from a modulo (`do_update = i % k ==
    0`, then `if do_update:`); and a clear under the step's own accumulation gate (a
    modulo, or a test named for accumulation, update or sync) that runs before the
    backward (`if should_update(i): opt.zero_grad()`, then `backward()`, then `if
    should_update(i): opt.step()`): each update iteration wipes the accumulated micro-batches.

    Why it happens: `zero_grad()` sets every `.grad` to None (or zero). A step
    that follows it finds no gradient: the parameters never move (with momentum or weight
    decay they drift on the old state only), and the loss stays flat from the first step
    (cause `params-not-updated`).

    Example:
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.zero_grad()                        # clears what backward just computed
            optimizer.step()

    How to fix:
        for x, y in loader:
            optimizer.zero_grad(set_to_none=True)
            F.cross_entropy(model(x), y).backward()
            optimizer.step()
    """
    if not any(is_backward(m, s.node) for s in m.w.calls):
        return
    for site in m.w.loops:
        ev = ordered_events(m, site.node, lambda c: train_event(m, c), key="train", own_level=True)
        kinds = {e for e, _, _ in ev}
        if not {"B", "S", "Z"} <= kinds:
            continue
        steps = {step_target(n) for e, n, _ in ev if e == "S"}
        n = len(ev)
        for i, (e, node, _) in enumerate(ev):
            if e != "B":
                continue
            for j in range(1, n):
                e2, clear, anchor = ev[(i + j) % n]
                if e2 == "S":
                    break
                if e2 != "Z":
                    continue
                step = next((ev[(i + j + k) % n] for k in range(1, n) if ev[(i + j + k) % n][0] == "S"), None)
                if step is None:
                    break
                who = text(clear.func.value) if hasattr(clear.func, "value") else ""
                target = step_target(step[1])
                if who == target or (not _optimizer_like(who) and len(steps) == 1):
                    yield Hit(anchor, f"gradients cleared (line {clear.lineno}) after backward() (line "
                                      f"{node.lineno}) and before the optimizer step (line {step[1].lineno}): "
                                      "the step sees no gradients and the weights do not learn")
                break
    yield from _micro_batches(m)
    yield from _model_cleared_in_accumulate(m)
    yield from _accumulation_voided(m)
    yield from _cleared_on_the_step_iteration(m)


def _micro_batches(m):
    """``for x, y in zip(xs, ys): opt.zero_grad(); loss(x, y).backward()`` with the step after
    the loop: each micro-batch clears the one before, so the step sees only the last. A loop
    that reads the gradients (per-sample gradients, DP-SGD) is left alone."""
    by_loop, by_func = calls_index(m)
    for site in m.w.loops:
        loop = site.node
        ev = [(e, a) for e, _, a in ordered_events(m, loop, lambda c: train_event(m, c), key="train",
                                                    own_level=True)]  # helpers expanded
        zs = [c for e, c in ev if e == "Z"]
        bs = [c for e, c in ev if e == "B"]
        if not zs or not bs or any(e == "S" for e, _ in ev) or zs[0].lineno > bs[0].lineno:
            continue
        if any(isinstance(n, ast.Attribute) and n.attr == "grad" and isinstance(n.ctx, ast.Load)
               for n in walk(loop)):
            continue
        outer = [s.node for s in (by_loop.get(id(site.ctx.loops[-1]), ()) if site.ctx.loops
                                  else by_func.get(id(site.ctx.func), ()))]
        after = sorted((c for c in outer if c.lineno > (loop.end_lineno or loop.lineno)), key=lambda c: c.lineno)
        nxt = next(((e, c) for e, c in ((train_event(m, c), c) for c in after) if e), ("", None))
        closure = nxt[0] == "S" and bool(nxt[1].args or nxt[1].keywords) and \
            text(nxt[1].func.value) == step_target(nxt[1])  # opt.step(fn) recomputes; scaler.step(opt) does not
        if nxt[0] == "S" and not closure:
            yield Hit(zs[0], f"gradients cleared inside the micro-batch loop on line {loop.lineno}, before each "
                             "backward(), while the optimizer steps once after it: every micro-batch erases the "
                             "one before, so the step sees only the last; clear once before the loop")


def _model_cleared_in_accumulate(m):
    """``with accelerator.accumulate(model): ... model.zero_grad()``: accelerate skips the
    prepared optimizer's step and zero_grad on the micro-steps that do not sync, but not the
    model's, which clears what the earlier micro-steps accumulated."""
    for site in m.w.withs:
        for item in site.node.items:
            e = item.context_expr
            if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "accumulate"
                    and e.args):
                continue
            model = text(e.args[0])
            for n in (x for b in site.node.body for x in walk(b)):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "zero_grad" \
                        and text(n.func.value) == model:
                    yield Hit(n, f"`{model}.zero_grad()` inside `accumulate({model})`: accelerate skips the "
                                 "optimizer's zero_grad on micro-steps that do not sync, but not the model's, so "
                                 "each micro-step erases the gradients accumulated so far; call optimizer.zero_grad()")


def _optimizer_like(t: str) -> bool:
    low = t.lower()
    return "opt" in low or "scaler" in low


def _accumulation_voided(m):
    """Gradient accumulation undone: the optimizer steps only under a modulo gate
    (``if (i + 1) % k == 0: opt.step()``) while the same optimizer's gradients are cleared
    outside it, on every iteration of the loop or every call of a function (a Lightning
    ``training_step`` with manual optimisation, an ``update(batch)`` method). Each step
    sees one micro-batch's gradient; the other k - 1 are computed and thrown away."""
    from .accumulation_not_averaged import _counter, _inside, _mod

    if b"%" not in m.source and b"+= 1" not in m.source:
        return
    for unit, own in _units(m):
        seg = segment(m, unit)  # cheap text test before classifying the unit's calls
        if b"%" not in seg and b"+= 1" not in seg or b"step" not in seg:
            continue
        steps = [c for c in own if train_event(m, c) == "S"]
        backs = [c for c in own if train_event(m, c) == "B"]
        modded = _modulo_names(unit)
        ifs = [n for n in walk(unit) if isinstance(n, ast.If)
               and (_mod(n.test) or _counter(unit, n) or text(n.test) in modded)]
        gates = [n for n in ifs if any(_inside(n, c) for c in steps)]
        if not gates or not backs or any(_inside(g, b) for g in gates for b in backs):
            continue
        gated = {step_target(c) for c in steps if any(_inside(g, c) for g in gates)}
        # a clear under its own modulo gate (ignite: `if (iteration - 1) % k == 0: zero_grad()`) is fine
        for c in own:
            if train_event(m, c) != "Z" or any(_inside(g, c) for g in ifs):
                continue
            who = text(c.func.value) if isinstance(c.func, ast.Attribute) else ""
            if who in gated or not _optimizer_like(who) and len(gated) == 1:
                yield Hit(c, f"gradients cleared on every {'call' if isinstance(unit, ast.FunctionDef) else 'iteration'}"
                             f" while `{who}` steps only every k (line {gates[0].lineno}): each step sees one "
                             "micro-batch's gradient and the accumulation is lost; clear them after the step, "
                             "inside the same `if`")
                break


def _units(m) -> list:
    """(loop or function, the calls at its own level): the iterations and the per-batch
    methods whose calls are read in order."""
    by_loop, by_func = calls_index(m)
    units = [(s.node, [c.node for c in by_loop.get(id(s.node), ()) if c.ctx.loops[-1] is s.node])
             for s in m.w.loops]
    return units + [(fn, [c.node for c in by_func.get(id(fn), ()) if not c.ctx.loops])
                    for fns in m.w.functions.values() for fn in fns]


_GATE = re.compile(r"accum|update|sync|should_step|%")


def _cleared_on_the_step_iteration(m):
    """``if self.is_update_step(p): opt.zero_grad()``, then ``backward()``, then
    ``if self.is_update_step(p): opt.step()``: the clear shares the step's accumulation gate
    but runs before the backward, so on each update iteration it wipes the k - 1
    micro-batches accumulated since the last step (bench/lint_recall_22 33). Gates that
    read as accumulation and change per iteration only (a modulo, a name set from one, a
    call named for accum/update/sync): ``if train:`` or a flag ``if update_encoder:``
    around both is an ordinary zero_grad, backward, step."""
    from .accumulation_not_averaged import _inside

    if b"zero_grad" not in m.source:
        return
    for unit, own in _units(m):
        modded = _modulo_names(unit)
        ifs = [n for n in walk(unit) if isinstance(n, ast.If) and _GATE.search(ast.unparse(n.test))
               and (isinstance(n.test, ast.Call) or "%" in ast.unparse(n.test) or text(n.test) in modded)]
        if len(ifs) < 2:
            continue
        backs = [c for c in own if train_event(m, c) == "B" and not any(_inside(g, c) for g in ifs)]
        for g in ifs:
            clears = [c for c in own if train_event(m, c) == "Z" and _inside(g, c)]
            steps = [c for h in ifs if h is not g and ast.unparse(h.test) == ast.unparse(g.test)
                     for c in own if train_event(m, c) == "S" and _inside(h, c)]
            for z in clears:
                who = text(z.func.value) if isinstance(z.func, ast.Attribute) else ""
                st = next((c for c in steps if c.lineno > z.lineno and step_target(c) == who), None)
                if st is not None and any(z.lineno < b.lineno < st.lineno for b in backs):
                    yield Hit(z, f"gradients cleared under the step's own gate (`{ast.unparse(g.test)}`, line {g.lineno}) "
                                 f"before the backward: on each update iteration the clear wipes the micro-batches "
                                 f"accumulated since the last step, so the step on line {st.lineno} sees one; clear "
                                 "after the step instead")
                    return


def _modulo_names(unit) -> set:
    """Names the unit sets to a modulo test (``should_step = self.step % self.k == 0``, then
    ``if should_step:``): the gate spelt in two lines (SpeechBrain's ``fit_batch``)."""
    from .accumulation_not_averaged import _mod

    return {text(t) for n in walk(unit) if isinstance(n, ast.Assign) and _mod(n.value) for t in n.targets}

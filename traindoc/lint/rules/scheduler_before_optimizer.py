"""TD522 scheduler-before-optimizer: ``scheduler.step()`` before the first ``optimizer.step()`` of the loop."""

from __future__ import annotations

import ast

from ..flow import exclusive_branches, ordered_events
from ..grad_mode import eval_context
from ..registry import Hit, lint_rule
from ..source import text
from ..training import is_sched_step, is_step
from ..walk import walk


@lint_rule(
    "scheduler-before-optimizer", "TD522", "warning",
    "the learning-rate scheduler is stepped before the optimizer in the loop, so the first value of the schedule is skipped",
    needles=[("sched",), ("step(",)],
    fix="call scheduler.step() after optimizer.step(): at the end of the iteration (per-step schedules) or of the epoch",
    confirm="run one iteration with a warning filter: PyTorch warns 'Detected call of lr_scheduler.step() before "
            "optimizer.step()'",
)
def check(m):
    """What it detects: a loop whose iteration, read in order (calls of the same file's
    functions included), calls a learning-rate scheduler's `step()` before the first
    optimizer step: `for epoch ...: scheduler.step(); train(...)` (the pre-1.1 order), or
    `scheduler.step(); optimizer.step()` in a batch loop. The scheduler is recognised by
    its class (`torch.optim.lr_scheduler.*`, `*Scheduler`, `*LR`) or its name (`sched`),
    stepped with no argument or with the epoch (`step(epoch)`, `step(epoch=epoch - 1)`).
    `ReduceLROnPlateau`, which steps on a metric, is not flagged; the scheduler step must
    sit in the loop itself, in a function it calls that steps schedulers and no optimizer
    (CycleGAN's `model.update_learning_rate()` at the top of each epoch), or in a function
    that, outside any loop of its own, steps the scheduler before its first optimizer step
    (a per-batch `train_step`, a `train_epoch` that starts with `scheduler.step()`); loops
    in test or evaluation functions are not checked.

    Why it happens: since PyTorch 1.1 `scheduler.step()` belongs after
    `optimizer.step()`. Called first, it advances the schedule before any update: the
    initial learning rate (the warmup's first value, or the first epoch of a step
    schedule) is never used, the whole schedule is shifted by one step, and a warmup that
    starts at 0 skips straight to its second value. PyTorch warns once; the warning is
    easy to miss in a log.

    Example:
        for epoch in range(epochs):
            scheduler.step()                             # before any optimizer.step() of the epoch
            for x, y in loader:
                ...; optimizer.step()

    How to fix:
        for epoch in range(epochs):
            for x, y in loader:
                ...; optimizer.step()
            scheduler.step()
    """
    for site in m.w.loops:
        loop = site.node
        ev = ordered_events(m, loop, lambda c: _classify(m, c), depth=2, key="sched", untyped=True)
        if not any(e == "S" for e, _, _ in ev):
            continue
        for i, (e, node, anchor) in enumerate(ev):
            if e != "L" or eval_context(m, site.ctx):
                continue
            if node is not anchor and any(e2 == "S" for e2, _, a2 in ev if a2 is anchor):
                continue  # a helper that steps both: _step_functions judges its own order
            # optimizer steps on the same path through the iteration: one in the other arm
            # of an if (warm-up epochs train with another optimizer) does not come first
            same = [a for e2, _, a in ev if e2 == "S" and not exclusive_branches(loop, a, anchor)]
            if not same or _pos(same[0]) < _pos(anchor):
                continue
            yield Hit(anchor, f"scheduler step before the optimizer step (line {same[0].lineno}) of the loop on "
                              f"line {loop.lineno}: the first learning rate of the schedule is skipped; "
                              "step the scheduler after the optimizer")
    yield from _step_functions(m)
    yield from _started_handlers(m)


def _step_functions(m):
    """A function that, outside any loop of its own, steps the scheduler before its first
    optimizer step (``def train_step(self, batch): ...; self.scheduler.step();
    self.optimizer.step()``, or ``def train_epoch(...): scheduler.step(); for x, y in
    loader: ... optimizer.step()``): whoever calls it gets the order wrong on every call."""
    for fns in m.w.functions.values():
        for fn in fns:
            ev = [(e, n) for e, n, a in ordered_events(m, fn, lambda c: _classify(m, c), depth=0, key="sched-fn")]
            first = next((i for i, (e, _) in enumerate(ev) if e == "S"), None)
            if first is None or fn.name.lower().startswith(("test", "eval", "valid")):
                continue
            own = {id(n) for _, n, _ in ordered_events(m, fn, lambda c: _classify(m, c), depth=0, key="sched-fn",
                                                       own_level=True)}
            for e, node in ev[:first]:  # a scheduler step outside loops, before the first optimizer step
                if e == "L" and id(node) in own and not exclusive_branches(fn, node, ev[first][1]):
                    yield Hit(node, f"scheduler step before the optimizer step (line {ev[first][1].lineno}) in "
                                    f"`{fn.name}`: each call skips ahead in the schedule before updating; step the "
                                    "scheduler after the optimizer")


_STARTED = ("EPOCH_STARTED", "ITERATION_STARTED", "STARTED")


def _started_handlers(m):
    """Scheduler steps in an ignite handler of ``Events.EPOCH_STARTED`` /
    ``ITERATION_STARTED`` (``@trainer.on(...)`` or ``add_event_handler(...)``): they run
    before the epoch's (the iteration's) first optimizer step."""
    if b"Events" not in m.source:
        return  # ignite's event names
    registered = {}
    for site in m.w.calls:
        c = site.node
        if isinstance(c.func, ast.Attribute) and c.func.attr == "add_event_handler" and len(c.args) >= 2 \
                and isinstance(c.args[1], ast.Name):
            registered[c.args[1].id] = c.args[0]
    for fn in (n for n in walk(m.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        events = [d.args[0] for d in fn.decorator_list if isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
                  and d.func.attr == "on" and d.args] + ([registered[fn.name]] if fn.name in registered else [])
        ev = next((e for e in events if text(e).rsplit(".", 1)[-1].split("(")[0] in _STARTED), None)
        if ev is None:
            continue
        for c in (n for n in walk(fn) if isinstance(n, ast.Call)):
            if is_sched_step(m, c):
                yield Hit(c, f"scheduler step in a handler of `{text(ev)}`: it runs before that epoch's first "
                             "optimizer step, so the first learning rate of the schedule is skipped; attach it to "
                             "EPOCH_COMPLETED (ITERATION_COMPLETED for per-step schedules)")


def _pos(n) -> tuple:
    return (n.lineno, n.col_offset)


def _classify(m, call) -> str:
    if is_sched_step(m, call):
        return "L"
    if is_step(m, call):
        return "S"
    return ""

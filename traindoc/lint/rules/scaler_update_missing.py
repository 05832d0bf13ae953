"""TD534 scaler-update-missing: ``scaler.step(opt)`` without ``scaler.update()``."""

from __future__ import annotations

import ast

from ..registry import Hit, lint_rule
from ..source import text
from ..training import is_scaler


@lint_rule(
    "scaler-update-missing", "TD534", "error",
    "a GradScaler steps the optimizer but scaler.update() is never called",
    needles=[("scaler",), (".step(",)],
    fix="call scaler.update() after every scaler.step(optimizer)",
    confirm="run two iterations: the second scaler.step raises 'step() has already been called since the last update()'",
)
def check(m):
    """What it detects: `scaler.step(optimizer)` on a GradScaler (by class, or a name
    containing "scaler") in a file where no `.update()` is called on that scaler.

    Why it happens: `update()` adjusts the loss scale (down after an overflow,
    up after a run of good steps) and resets the scaler's per-iteration state. Without
    it the second `scaler.step` raises "step() has already been called since the last
    update()" in current PyTorch; in older versions, or with a custom loop that catches
    the error, the scale never adapts: after one overflow every later step is skipped or
    every small gradient underflows (cause `fp16-overflow`, `fp16-underflow`).

    Example:
        scaler.scale(loss).backward()
        scaler.step(optimizer)                           # no scaler.update()

    How to fix:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    """
    updated = set()
    steps = []
    for site in m.w.calls:
        f = site.node.func
        if isinstance(f, ast.Attribute) and f.attr == "update":
            updated.add(text(f.value))
        elif isinstance(f, ast.Attribute) and f.attr == "step" and site.node.args and is_scaler(m, f.value):
            steps.append(site.node)
    for call in steps:
        who = text(call.func.value)
        if who and who not in updated and who.rsplit(".", 1)[-1] not in {u.rsplit(".", 1)[-1] for u in updated}:
            yield Hit(call, f"`{who}.step(...)` without `{who}.update()` anywhere in the file: the loss scale never "
                            "adapts and the next step raises; call update() after every step")

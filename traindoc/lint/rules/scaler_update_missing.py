"""TD534 scaler-update-missing: ``scaler.step(opt)`` without ``scaler.update()``."""

from __future__ import annotations

import ast

from ..registry import Hit, lint_rule
from ..flow import single_def
from ..source import short, text
from ..training import is_clip, is_scaler
from ..walk import walk


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

    Also: `scaler.update()` only in the branch of an `if` on the gradient norm
    (`if math.isfinite(grad_norm):`, `if grad_norm <= limit:`) whose other branch skips
    the step without updating, after the scaler scaled or unscaled the iteration's
    gradients (a loss skipped before its backward touches no scaler state): an overflow is
    exactly when `update()` must lower the scale, so after the first one the scale stays
    too high and every later step is skipped.
    The finding points at the `update()` call.

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
    yield from _update_skipped_on_bad_gradients(m)
    for call in steps:
        who = text(call.func.value)
        if who and who not in updated and who.rsplit(".", 1)[-1] not in {u.rsplit(".", 1)[-1] for u in updated}:
            yield Hit(call, f"`{who}.step(...)` without `{who}.update()` anywhere in the file: the loss scale never "
                            "adapts and the next step raises; call update() after every step")


_BAD_GRAD_WORDS = ("norm", "isfinite", "isnan", "isinf", "nan", "inf", "overflow")


def _update_skipped_on_bad_gradients(m):
    """``if <gradient norm test>: scaler.step(opt); scaler.update()`` with no update() in
    the ``else`` branch: the scale is never lowered after an overflow."""
    for n in walk(m.tree):
        if not isinstance(n, ast.If) or not (any(w in short(n.test, 200).lower() for w in _BAD_GRAD_WORDS) or any(
                isinstance(x, ast.Name) and isinstance(single_def(m, x), ast.Call) and is_clip(m, single_def(m, x))
                for x in walk(n.test))):  # gn = clip_grad_norm_(...); if gn > 100:
            continue
        if not _scaled_before(m, n):
            continue  # a non-finite loss skipped before backward: the scaler has nothing to update
        for branch, other, when in ((n.body, n.orelse, "holds"), (n.orelse, n.body, "is false")):
            ups = [c for s in branch for c in walk(s) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                   and c.func.attr == "update" and not c.args and is_scaler(m, c.func.value)]
            if ups and not any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "update"
                               for s in other for c in walk(s)):
                yield Hit(ups[0], f"`{text(ups[0].func)}()` runs only when `{short(n.test, 60)}` {when}: when the "
                                  "gradients overflow the step is skipped without update(), so the loss scale is never "
                                  "lowered and every later step overflows too; call update() on both paths")


def _scaled_before(m, node: ast.If) -> bool:
    """A scaler's ``scale(...)`` or ``unscale_(...)`` ran before the ``if`` (outside it): the
    iteration's gradients are the scaler's, so it must be updated whatever the branch."""
    inside = {id(x) for x in walk(node)}
    return any(isinstance(s.node.func, ast.Attribute) and s.node.func.attr in ("scale", "unscale_")
               and is_scaler(m, s.node.func.value) and s.node.lineno < node.lineno and id(s.node) not in inside
               for s in m.w.calls)

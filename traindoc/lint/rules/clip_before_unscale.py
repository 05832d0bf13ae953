"""TD517 clip-before-unscale: clip_grad_norm_ on scaled gradients (GradScaler without unscale_)."""

from __future__ import annotations

import ast

from ..flow import exclusive_branches, ordered_events
from ..registry import Hit, lint_rule
from ..source import text
from ..training import is_clip


@lint_rule(
    "clip-before-unscale", "TD517", "error",
    "gradients clipped while a GradScaler still scales them: scaler.unscale_(optimizer) is missing before the clip",
    needles=[("clip_grad",), ("scale(",)],
    fix="call scaler.unscale_(optimizer) right before torch.nn.utils.clip_grad_norm_(...), then scaler.step(optimizer)",
    confirm="print the total norm clip_grad_norm_ returns: it is about scaler.get_scale() (65536 at the start) "
            "times the real norm",
)
def check(m):
    """What it detects: `torch.nn.utils.clip_grad_norm_` (or `clip_grad_value_`) called
    after `scaler.scale(loss).backward()` in the same function (or loop) with no
    `scaler.unscale_(optimizer)` before it; or, where the backward and the step are
    separate methods, before a `scaler.step(optimizer)` in a file that scales the loss
    and never calls `unscale_`. `accelerator.clip_grad_norm_` and helpers
    that unscale themselves are not flagged, nor is a file that never calls `.scale(`,
    nor a clip in the other branch of an `if use_amp:` than the scaled backward.

    Why it happens: a GradScaler multiplies the loss, and therefore every
    gradient, by its scale (65536 at the start). The clip then compares the scaled norm
    with `max_norm`: it always clips, by a factor of about the scale, so the update after
    `scaler.step` (which unscales) is thousands of times too small and training crawls;
    `clip_grad_value_` clips at max/scale. The AMP recipe calls unscale_ first for this
    reason (cause `slow-learning`).

    Example:
        scaler.scale(loss).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)   # clips 65536x-scaled gradients
        scaler.step(optimizer)

    How to fix:
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer); scaler.update()
    """
    done: set[int] = set()
    for site in m.w.calls:
        if is_clip(m, site.node) != "torch":
            continue
        fn = site.ctx.func
        if id(fn) in done:
            continue
        done.add(id(fn))
        ev = ordered_events(m, fn, lambda c: _classify(m, c), depth=1, key="amp")
        scaled = []
        unscaled = False
        scope = fn if fn is not None else m.tree
        for e, node, anchor in ev:
            if e == "scale":
                scaled.append(anchor)
            elif e == "unscale":
                unscaled = True
            elif e == "clip" and not unscaled and any(not exclusive_branches(scope, s, anchor) for s in scaled):
                yield Hit(anchor, "gradient clipping after scaler.scale(loss).backward() without "
                                  "scaler.unscale_(optimizer) first: it clips the scaled gradients (x65536 at the "
                                  "start), so every step is shrunk by the scale factor")
            elif e == "clip" and not scaled and _split_step(m, ev, node):
                yield Hit(anchor, "gradient clipping before scaler.step(optimizer), with the backward scaled by "
                                  "scaler.scale(loss) elsewhere in the file and no scaler.unscale_(optimizer) "
                                  "anywhere: it clips the scaled gradients (x65536 at the start), so every step is "
                                  "shrunk by the scale factor")

    yield from _through_calls(m, done)


def _through_calls(m, done: set[int]):
    """A clip in a helper (``def clip_gradients(self): clip_grad_norm_(...)``) that a loop or
    function calls after ``scaler.scale(loss).backward()`` (itself maybe in a helper) and
    before any ``unscale_``: the order is the caller's, read through its calls."""
    seen: set[int] = set()
    for fns in m.w.functions.values():
        for fn in fns:
            if id(fn) in done:
                continue
            scaled: list = []
            unscaled = False
            for e, node, anchor in ordered_events(m, fn, lambda c: _classify(m, c), depth=2, key="amp-calls"):
                if e == "scale":
                    scaled, unscaled = [*scaled, node], False
                elif e == "unscale":
                    unscaled = True
                elif e == "clip" and node is not anchor and not unscaled and id(node) not in seen \
                        and any(not exclusive_branches(m.tree, sc, node) for sc in scaled):
                    seen.add(id(node))
                    yield Hit(node, f"gradient clipping (called from line {anchor.lineno}) after "
                                    "scaler.scale(loss).backward() and before scaler.unscale_(optimizer): it clips "
                                    "the scaled gradients (x65536 at the start), so every step is shrunk by the "
                                    "scale factor")


def _split_step(m, ev, clip) -> bool:
    """The backward and the step live in different methods (``def backward(self, loss):
    self.scaler.scale(loss).backward()`` / ``def step(self): clip; self.scaler.step(opt)``):
    a ``scaler.step`` follows the clip here, ``scaler.scale`` is called in the file and
    ``unscale_`` nowhere."""
    if b"unscale_" in m.source:
        return False
    after = False
    for e, node, _ in ev:
        if node is clip:
            after = True
        elif after and e == "scaler-step":
            return any(_classify(m, s.node) == "scale" for s in m.w.calls)
    return False


def _classify(m, call: ast.Call) -> str:
    f = call.func
    if isinstance(f, ast.Attribute):
        if f.attr == "unscale_":
            return "unscale"
        if f.attr == "scale" and call.args and "scaler" in text(f.value).lower():
            return "scale"
        if f.attr == "step" and call.args and "scaler" in text(f.value).lower():
            return "scaler-step"
    if is_clip(m, call) == "torch":
        return "clip"
    return ""

"""TD535 clip-after-step: gradients clipped after the optimizer step (the clip changes nothing)."""

from __future__ import annotations

import ast

from ..flow import exclusive_branches, ordered_events
from ..registry import Hit, lint_rule
from ..source import segment, text
from ..training import is_backward, is_clip, is_step
from ..walk import walk


@lint_rule(
    "clip-after-step", "TD535", "warning",
    "gradient clipping placed after the optimizer step (and before the next backward): it clips gradients already used",
    needles=[("clip_grad",), ("step",)],
    fix="clip between backward() and step(): loss.backward(); clip_grad_norm_(...); optimizer.step()",
    confirm="log the norm clip_grad_norm_ returns and the update size: large norms go straight into the step",
)
def check(m):
    """What it detects: a loop whose iteration, read in order (calls of the same file's
    functions included), clips the gradients (`clip_grad_norm_`, `clip_grad_value_`, any
    spelling, `accelerator.clip_grad_norm_`) after the optimizer step with no backward in
    between, including a clip at the top of the iteration before the backward (it sees
    the previous step's gradients). A clip and a step in different branches of one `if`
    are not compared.

    Why it happens: the optimizer has already applied the unclipped gradient;
    the clip then rescales gradients that the next `zero_grad()` or `backward()` discards.
    The run has no gradient clipping at all, so the spikes it was meant to stop go
    straight into the weights (cause `exploding-gradient`, `loss-spike`).

    Example:
        loss.backward()
        optimizer.step()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)     # too late

    Also: a clip inside a Lightning `training_step` under automatic optimization (no
    `manual_backward`, no `automatic_optimization = False` in the class): Lightning calls
    backward after `training_step` returns, so the clip sees no gradient of this step
    (the finding points at the clip; Lightning's `gradient_clip_val=` or
    `configure_gradient_clipping` clip at the right time).

    How to fix:
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
    """
    yield from _clip_in_training_step(m)
    for site in m.w.loops:
        ev = ordered_events(m, site.node, lambda c: _classify(m, c), key="clip", own_level=True)
        if not any(e == "C" for e, _, _ in ev) or not any(e == "S" for e, _, _ in ev) \
                or not any(e == "B" for e, _, _ in ev):
            continue
        n = len(ev)
        for i, (e, node, anchor) in enumerate(ev):
            if e != "C":
                continue
            for j in range(1, n):
                e2, node2, anchor2 = ev[(i - j) % n]
                if e2 == "B":
                    break
                if e2 == "S" and not exclusive_branches(site.node, anchor, anchor2):
                    # the clip itself (inside a helper the loop calls): the line to move
                    yield Hit(node, f"gradient clipping after the optimizer step (line {node2.lineno}) with no "
                                      "backward in between: the step already used the unclipped gradients; clip "
                                      "between backward() and step()")
                    break


def _classify(m, call) -> str:
    if is_clip(m, call):
        return "C"
    if is_backward(m, call):
        return "B"
    if is_step(m, call):
        return "S"
    return ""


def _clip_in_training_step(m):
    """A clip in a ``training_step`` of a class that leaves backward to Lightning."""
    for cls in (n for n in walk(m.tree) if isinstance(n, ast.ClassDef)):
        lightning = any(text(b).endswith("LightningModule") for b in cls.bases) or any(
            isinstance(f, ast.FunctionDef) and f.name == "configure_optimizers" for f in cls.body)
        if not lightning or "automatic_optimization" in segment(m, cls).decode("utf-8", "replace"):
            continue  # manual optimization: the method runs backward itself
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef) or fn.name != "training_step":
                continue
            calls = [c for c in walk(fn) if isinstance(c, ast.Call)]
            if any(is_backward(m, c) or isinstance(c.func, ast.Attribute) and c.func.attr == "manual_backward"
                   for c in calls):
                continue
            for c in calls:
                if is_clip(m, c):
                    yield Hit(c, "gradient clipping inside training_step: Lightning runs backward after "
                                 "training_step returns, so this clips no gradient of this step; set "
                                 "Trainer(gradient_clip_val=...) or override configure_gradient_clipping")

"""TD525 method-not-called: ``optimizer.zero_grad`` / ``loss.backward`` / ``model.eval`` without ()."""

from __future__ import annotations

import ast

from ..registry import Hit, lint_rule
from ..source import text

_METHODS = {
    "zero_grad": "the gradients are never cleared",
    "backward": "no gradient is computed",
    "step": "the optimizer (or scheduler) never steps",
    "eval": "the model stays in training mode",
    "train": "the model stays in its current mode",
}


@lint_rule(
    "method-not-called", "TD525", "error",
    "a training method named but not called (`optimizer.zero_grad`, `loss.backward`, `model.eval` without parentheses)",
    needles=[("zero_grad", "backward", "step", "eval", "train")],
    fix="add the parentheses: optimizer.zero_grad(), loss.backward(), optimizer.step(), model.eval()",
    confirm="the statement evaluates to a bound method and does nothing: print(optimizer.zero_grad) shows it",
)
def check(m):
    """What it detects: an expression statement that only names one of `zero_grad`,
    `backward`, `step`, `eval` or `train` on an object, without calling it:
    `optimizer.zero_grad`, `loss.backward`, `opt.step`, `model.eval`, `net.train`.

    Why it happens: the statement looks up the bound method and throws it away;
    Python raises nothing. Without the call the gradients are never cleared (cause
    `missing-zero-grad`), never computed, never applied (`params-not-updated`), or the
    model never switches mode (dropout and BatchNorm in validation, cause
    `validation-in-train-mode`), while the loop looks right at a glance.

    Example:
        optimizer.zero_grad                              # does nothing
        loss.backward()
        optimizer.step()

    How to fix:
        optimizer.zero_grad()
    """
    for site in m.w.exprs:
        v = site.node.value
        if type(v) is ast.Attribute and v.attr in _METHODS:
            yield Hit(v, f"`{text(v) or v.attr}` is named but not called: {_METHODS[v.attr]}; add `()`")

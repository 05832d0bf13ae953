"""TD545 requires-grad-never-enabled: ``if p.requires_grad: p.requires_grad = flag``."""

from __future__ import annotations

import ast

from ..registry import Hit, lint_rule
from ..source import text
from ..walk import walk


@lint_rule(
    "requires-grad-never-enabled", "TD545", "warning",
    "`requires_grad` set only on parameters that already require grad (`if p.requires_grad: p.requires_grad = "
    "flag`): it can freeze a parameter but never unfreeze one",
    needles=[("requires_grad",)],
    fix="set it on every parameter: for p in module.parameters(): p.requires_grad = flag (or module.requires_grad_(flag))",
    confirm="after the call meant to unfreeze, print sum(p.requires_grad for p in module.parameters()): unchanged",
)
def check(m):
    """What it detects: an assignment `X.requires_grad = flag` (or a call
    `X.requires_grad_(flag)`) inside an `if X.requires_grad:` (also `== True`, `is True`) on the
    same `X`, where `flag` is not the constant `False`. The finding points at the assignment.

    Why it happens: a `set_trainable(flag)` helper written to freeze a module (a linear probe,
    a frozen encoder) skips the parameters that are already frozen, so when it is later
    called with `True` to fine-tune, nothing is frozen-then-enabled: every frozen parameter
    stays frozen, the optimizer built from `requires_grad` parameters leaves them out, and the
    fine-tuning stage trains the head alone (byol-a issue 7; cause `params-not-updated`).
    Only the freezing direction works; the run gives no error.

    Example:
        def set_trainable(self, trainable=False):
            for p in self.parameters():
                if p.requires_grad:
                    p.requires_grad = trainable          # True never reaches a frozen p

    How to fix:
        def set_trainable(self, trainable=False):
            for p in self.parameters():
                p.requires_grad = trainable
    """
    for node in walk(m.tree):
        if not isinstance(node, ast.If):
            continue
        subject = _tested(node.test)
        if subject is None:
            continue
        for st in node.body:
            for n in walk(st):
                value = None
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute) \
                        and n.targets[0].attr == "requires_grad" and text(n.targets[0].value) == subject:
                    value = n.value
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "requires_grad_" \
                        and text(n.func.value) == subject:
                    value = n.args[0] if n.args else ast.Constant(True)
                if value is None or isinstance(value, ast.Constant) and value.value is False:
                    continue  # freezing only the trainable ones is what the test is for
                yield Hit(n, f"`{subject}.requires_grad` is set only when it is already True (the `if` on line "
                             f"{node.lineno}): this can freeze a parameter but never unfreeze one, so a later "
                             "call meant to make it trainable leaves it frozen; drop the test")


def _tested(test) -> str | None:
    """``p`` for ``if p.requires_grad:`` / ``== True`` / ``is True``; else None."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in (ast.Eq, ast.Is) \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is True:
        test = test.left
    if isinstance(test, ast.Attribute) and test.attr == "requires_grad":
        return text(test.value) or None
    return None

"""TD513 functional-dropout-always-on: F.dropout in a module without training=self.training."""

from __future__ import annotations

import ast

from .. import names as N
from ..registry import Hit, lint_rule
from ..source import keyword, may_be


@lint_rule(
    "functional-dropout-always-on", "TD513", "warning",
    "F.dropout called in a module's method without training=self.training: it stays on in eval mode",
    needles=[("dropout",)],
    fix="pass training=self.training (F.dropout(x, p, training=self.training)) or use an nn.Dropout module",
    confirm="call model.eval() and run the same input twice: the outputs differ",
)
def check(m):
    """What it detects: `F.dropout(x, p)` (also `dropout1d/2d/3d`, `alpha_dropout`,
    `feature_alpha_dropout`, through any import spelling) called in a method of a class
    without the `training` argument, whose default is True. A call that passes `training`
    (by keyword or as the third positional argument) is not flagged, `training=True`
    included (Monte Carlo dropout is deliberate), and neither is a call under a test of
    `self.training` (`if self.training: x = F.dropout(x, p)`).

    Why it happens: unlike `nn.Dropout`, the functional form does not know the
    module's mode. `model.eval()` leaves it on, so validation and inference drop p of the
    activations at random and rescale the rest: metrics are noisy and pessimistic,
    predictions are not reproducible, and early stopping and checkpoint selection work on
    noise (cause `overfitting` diagnoses are distorted).

    Example:
        def forward(self, x):
            x = F.dropout(F.relu(self.fc1(x)), p=0.5)    # on in eval mode too

    How to fix:
        x = F.dropout(F.relu(self.fc1(x)), p=0.5, training=self.training)
        # or self.drop = nn.Dropout(0.5) in __init__ and x = self.drop(x)
    """
    for site in m.w.calls:
        if site.ctx.cls is None or site.ctx.func is None:
            continue
        call = site.node
        if not may_be(call, lambda n: "dropout" in n):
            continue
        c = m.callee(call)
        if c[0] != "fn" or c[1] not in N.DROPOUT_FNS:
            continue
        if len(call.args) >= 3 or keyword(call, "training") is not None or any(k.arg is None for k in call.keywords):
            continue
        if _guarded(m, site.ctx.func, call):
            continue
        yield Hit(call, f"`{c[1].rsplit('.', 1)[-1]}` without training=self.training in "
                        f"`{site.ctx.cls.name}.{site.ctx.func.name}`: its default is training=True, so dropout "
                        "stays on after model.eval()")


def _guarded(m, fn, call) -> bool:
    """The call sits under ``if self.training`` (or a conditional expression testing it)."""
    for n in ast.walk(fn):
        if isinstance(n, (ast.If, ast.IfExp)) and any(
            isinstance(x, ast.Attribute) and x.attr == "training" or isinstance(x, ast.Name) and x.id == "training"
            for x in ast.walk(n.test)
        ):
            body = n.body if isinstance(n.body, list) else [n.body]
            if any(x is call for b in body for x in ast.walk(b)):
                return True
    return False

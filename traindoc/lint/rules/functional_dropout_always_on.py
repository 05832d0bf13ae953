"""TD513 functional-dropout-always-on: F.dropout in a module without training=self.training."""

from __future__ import annotations

import ast

from .. import names as N
from ..registry import Hit, lint_rule
from ..source import keyword, may_be, segment, short
from ..walk import walk


@lint_rule(
    "functional-dropout-always-on", "TD513", "warning",
    "F.dropout called in a module's method without training=self.training: it stays on in eval mode",
    needles=[("dropout", "Dropout")],
    fix="pass training=self.training (F.dropout(x, p, training=self.training)) or use an nn.Dropout module",
    confirm="call model.eval() and run the same input twice: the outputs differ",
)
def check(m):
    """What it detects: `F.dropout(x, p)` (also `dropout1d/2d/3d`, `alpha_dropout`,
    `feature_alpha_dropout`, through any import spelling) called in a method of a class
    without the `training` argument, whose default is True. A call that passes `training`
    (by keyword or as the third positional argument) is not flagged, except a literal
    `training=True`, unless the file speaks of Monte Carlo dropout, Bayesian or
    uncertainty estimates (where it is deliberate); nor is a call under a test of
    `self.training` (`if self.training: x = F.dropout(x, p)`). Also flagged: a dropout
    function of the file (`dropout_layer(x, p)`, no mode passed) gated on a flag the module sets in
    `__init__` (`if self.is_training: x = dropout_layer(x, p)`), which `eval()` leaves as
    it was; the finding points at the `if`. And `nn.Dropout(p)(x)` built and applied in a
    method (a module made on the spot is not registered, so `eval()` never reaches it). And `F.scaled_dot_product_attention(...,
    dropout_p=self.dropout)` in a module's method, the rate not chosen by
    `self.training` (nanoGPT passes `self.dropout if self.training else 0`).

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
        tr = keyword(call, "training") if keyword(call, "training") is not None else \
            call.args[2] if len(call.args) >= 3 else None
        if isinstance(tr, ast.Constant) and tr.value is True and not any(w in m.source for w in _MC_WORDS):
            yield Hit(call, f"`{c[1].rsplit('.', 1)[-1]}(..., training=True)` in `{site.ctx.cls.name}."
                            f"{site.ctx.func.name}`: dropout stays on after model.eval(); pass "
                            "training=self.training (for Monte Carlo dropout, suppress this line)")
            continue
        if tr is not None or any(k.arg is None for k in call.keywords):
            continue
        if _guarded(m, site.ctx.func, call):
            continue
        yield Hit(call, f"`{c[1].rsplit('.', 1)[-1]}` without training=self.training in "
                        f"`{site.ctx.cls.name}.{site.ctx.func.name}`: its default is training=True, so dropout "
                        "stays on after model.eval()")
    yield from _own_flag(m)
    yield from _sdpa_dropout(m)
    yield from _inline_module(m)


_DROPOUT_MODULES = frozenset({"torch.nn.Dropout", "torch.nn.Dropout1d", "torch.nn.Dropout2d", "torch.nn.Dropout3d",
                              "torch.nn.AlphaDropout", "torch.nn.FeatureAlphaDropout"})


def _inline_module(m):
    """``x = nn.Dropout(p=0.5)(x)`` in a module's method (not ``__init__``): a module built on
    the spot is not a sub-module, starts in training mode, and ``model.eval()`` never reaches it."""
    for site in m.w.calls:
        f = site.node.func
        if site.ctx.cls is None or site.ctx.func is None or site.ctx.func.name == "__init__" \
                or not isinstance(f, ast.Call) or m.qualname(f.func) not in _DROPOUT_MODULES:
            continue
        yield Hit(site.node, f"`{short(f)}` built and applied inside `{site.ctx.cls.name}.{site.ctx.func.name}`: "
                             "a module made on the spot is not registered, starts in training mode, and "
                             "model.eval() never turns it off; create it in __init__ (self.drop = ...)")


_SDPA = frozenset({"torch.nn.functional.scaled_dot_product_attention"})


def _sdpa_dropout(m):
    """``F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout)`` in a module's
    method: the argument is a rate, applied whatever the mode; nanoGPT passes
    ``self.dropout if self.training else 0``."""
    for site in m.w.calls:
        if site.ctx.cls is None or site.ctx.func is None:
            continue
        call = site.node
        c = m.callee(call)
        if c[0] != "fn" or c[1] not in _SDPA:
            continue
        p = keyword(call, "dropout_p") if keyword(call, "dropout_p") is not None else \
            call.args[4] if len(call.args) >= 5 else None
        if p is None or isinstance(p, ast.Constant) or "training" in short(p, 200) \
                or _guarded(m, site.ctx.func, call) or b"training" in segment(m, site.ctx.func):
            continue  # no dropout, a literal (0.0 for inference code), or chosen by the mode somewhere
        yield Hit(p, f"`scaled_dot_product_attention(..., dropout_p={short(p)})` in `{site.ctx.cls.name}."
                        f"{site.ctx.func.name}`: the rate applies in eval mode too; pass "
                        f"`{short(p)} if self.training else 0.0`")


# Words of a file where dropout at inference is deliberate (MC dropout).
_MC_WORDS = (b"monte", b"Monte", b"MC", b"mc_", b"bayes", b"Bayes", b"uncertaint")


def _own_flag(m):
    """``if self.is_training: x = dropout_layer(x, p)``: dropout gated on a flag the module
    set in ``__init__`` instead of ``self.training``, which ``model.eval()`` never changes."""
    for cls in (n for n in walk(m.tree) if isinstance(n, ast.ClassDef)):
        init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
        if init is None:
            continue
        flags = {t.attr for n in walk(init) if isinstance(n, ast.Assign) for t in n.targets
                 if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
        flags.discard("training")
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef) or fn is init:
                continue
            for n in walk(fn):
                t = n.test if isinstance(n, ast.If) else None
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" \
                        and t.attr in flags and _drops(m, n.body):
                    yield Hit(n, f"dropout gated on `self.{t.attr}`, a flag set in `__init__`, not on "
                                 "`self.training`: model.eval() does not change it, so dropout stays on in evaluation")


def _drops(m, body) -> bool:
    """The statements call a dropout function of this file (named for it) without passing
    the module's mode."""
    for b in body:
        for c in walk(b):
            if isinstance(c, ast.Call) and may_be(c, lambda n: "dropout" in n.lower()):
                k = m.callee(c)
                mode = any(isinstance(x, ast.Attribute) and x.attr == "training" for x in walk(c))
                if k[0] == "obj" and isinstance(k[1], tuple) and k[1][0] == "func" \
                        and "dropout" in k[1][1].name.lower() and not mode:
                    return True  # a torch dropout there is the main check's (with or without training=)
    return False


def _guarded(m, fn, call) -> bool:
    """The call sits under ``if self.training`` (or a conditional expression testing it)."""
    for n in walk(fn):
        if isinstance(n, (ast.If, ast.IfExp)) and any(
            isinstance(x, ast.Attribute) and x.attr == "training" or isinstance(x, ast.Name) and x.id == "training"
            for x in walk(n.test)
        ):
            body = n.body if isinstance(n.body, list) else [n.body]
            if any(x is call for b in body for x in walk(b)):
                return True
    return False

"""TD512 train-mode-not-restored: model.eval() inside the training loop, never model.train() again."""

from __future__ import annotations

import ast

from ..bindings import Param
from ..flow import calls_index, helper_function, is_module_class, ordered_events
from ..registry import Hit, lint_rule
from ..source import call_name, text
from ..training import parameter_owners, train_event
from ..walk import walk


@lint_rule(
    "train-mode-not-restored", "TD512", "warning",
    "a training loop puts the model in eval mode (for validation) and never calls model.train() again",
    needles=[("eval(", "train(False"), ("backward",), ("step",)],
    fix="call model.train() at the start of every epoch (or at the end of the validation function)",
    confirm="print model.training at the first training step of epoch 2: it is False",
)
def check(m):
    """What it detects: a loop that trains (it calls `backward()` and an optimizer step,
    directly or through the same file's functions) and also calls `model.eval()` (or
    `model.train(False)`), typically through a `validate(model)` function, while no
    `.train()` call runs anywhere in that loop or the functions it calls. The model must be
    one whose `.parameters()` the file hands to something (the optimizer), or, in a file
    that never calls `.parameters()` (the optimizer is built elsewhere), one the loop
    itself calls (`model(x)`, `model.loss(...)`) or a same-file helper it calls does
    (`self.forward_pair(...)` running `self.model(...)`), so putting a frozen teacher or an EMA
    copy in eval mode is not flagged. Nor is a file whose model is in sight (an
    `nn.Module` class other than a loss, or torch.nn layers built in the file) with no dropout or batch norm
    (no `Dropout`, `BatchNorm`, `dropout`, and no pretrained or library model), where eval
    mode changes nothing; a model that comes from elsewhere (passed in, imported) may have
    either, so it is flagged. Also a training function that calls `model.train()`, then a
    helper of the file that calls `model.eval()` and never restores it (a data-aware
    initialisation), then a loop that trains without setting a mode. A diffusers model
    (`UNet2DConditionModel.from_pretrained`, GroupNorm and no dropout by default, also
    wrapped by `get_peft_model` or `accelerator.prepare`) in a file that never mentions
    dropout or batch norm counts as such. When the loop's training function itself calls
    `self.model.eval()` before its steps (`def _train(self): self.model.eval(); for ...:`), the
    finding points there (the model bound in `__init__` from what the constructor is passed).
    A training function defined
    in another file is not seen, so such a loop is never flagged. The finding points at the
    `eval()` call.

    Why it happens: after the first validation every later epoch trains in eval
    mode: dropout is off (the model overfits faster than the run before it), and BatchNorm
    normalises with its frozen running statistics instead of the batch's and stops
    updating them, which slows or destabilises training and makes the validation metrics
    after epoch 1 differ from what the same code gives with a restart (cause `overfitting`,
    `slow-learning`).

    Example:
        model.train()
        for epoch in range(epochs):
            for x, y in train_loader:
                ...; loss.backward(); opt.step()
            evaluate(model, val_loader)                  # calls model.eval(), never model.train()

    How to fix:
        for epoch in range(epochs):
            model.train()                                # every epoch
            for x, y in train_loader:
                ...
            evaluate(model, val_loader)
    """
    if not _mode_matters(m):
        return
    params = parameter_owners(m)
    for site in m.w.loops:
        ev = ordered_events(m, site.node, lambda c: _classify(m, c), depth=3, key="mode")
        kinds = {e for e, _, _ in ev}
        if {"B", "S"} <= kinds and not kinds & {"R", "E"} and not site.ctx.loops:
            hit = _flipped_before(m, site)
            if hit is not None:
                yield hit
        if not {"B", "S", "E"} <= kinds or "R" in kinds:
            continue
        # no .parameters() anywhere: the optimizer comes from elsewhere; the trained model is
        # then one the loop itself calls (what the E event's receiver must be)
        trained = params or _called_in(m, site.node)
        flips = [(i, node, a) for i, (e, node, a) in enumerate(ev) if e == "E"
                 and _owners(m, node.func.value) & trained and not _mode_free(m, node.func.value)]
        # an eval() in the function that trains, before its steps (`def _train(self): self.model.eval(); for
        # ...: loss.backward()`), is the line to change, not the validation's own eval()
        first = [(node, a) for i, node, a in flips if a is not node
                 and any(e == "B" and b is a for e, _, b in ev[i + 1:])]
        for node, a in first:
            yield Hit(node, f"`{text(node.func.value)}.eval()` runs in `{call_name(a)}()` before its training steps "
                            "and no `.train()` call runs in the loop on line "
                            f"{site.node.lineno}: every step trains in eval mode (dropout off, BatchNorm frozen); "
                            "call .train() there instead")
        for _, node, _ in flips if not first else ():
            yield Hit(node, f"`{text(node.func.value)}.eval()` runs inside the training loop on line "
                            f"{site.node.lineno} and no `.train()` call follows in that loop: the training steps "
                            "after it run in eval mode (dropout off, BatchNorm frozen); call model.train() after "
                            "validating, or at the start of each epoch")


def _flipped_before(m, site):
    """The training function calls ``model.train()``, then a helper of the file that calls
    ``model.eval()`` and never restores it (a data-aware initialisation, a sanity check),
    then the training loop, which sets no mode itself: every step of the run trains in eval
    mode. A Hit at that ``eval()``, else None. (An ``eval()`` written in the training
    function itself, with no ``train()`` in between, can be deliberate: frozen BatchNorm.)"""
    fn = site.ctx.func
    if fn is None:
        return None
    ev = ordered_events(m, fn, lambda c: _classify(m, c), depth=3, key="mode")
    before = [(e, n, a) for e, n, a in ev if e in ("R", "E") and a.lineno < site.node.lineno]
    if len(before) < 2 or before[-1][0] != "E" or before[-1][1] is before[-1][2] \
            or not any(e == "R" for e, _, _ in before[:-1]):
        return None
    _, node, anchor = before[-1]
    recv = text(node.func.value)
    if _last(recv) not in {_last(text(n.func.value)) for e, n, _ in before[:-1] if e == "R"} | {"model"}:
        return None
    return Hit(node, f"`{recv}.eval()` runs in `{call_name(anchor)}()`, which the training function calls on line "
                     f"{anchor.lineno} after `.train()` and before the training loop on line {site.node.lineno}, "
                     "and nothing sets train mode again: the whole run trains in eval mode (dropout off, "
                     "BatchNorm frozen); call .train() at the end of the helper or at the start of each epoch")


_MODE_WORDS = (b"ropout", b"BatchNorm", b"batch_norm", b"from_pretrained", b"models.", b"timm")


def _mode_matters(m) -> bool:
    """Something in the file may behave differently in eval mode: dropout or batch norm in
    sight, a pretrained or library model, or no model built in the file at all (it comes
    from a caller, whose layers this file cannot show)."""
    if any(w in m.source for w in _MODE_WORDS):
        return True
    if not any(w in m.source for w in _BUILT) and b"Module" not in m.source and b"nn." not in m.source:
        return True  # nothing that builds a model: it comes from a caller
    got = m.memo.get("train-mode.model-in-sight")
    if got is None:  # (a Module subclass by alias, from torch.nn import Linear)
        # a model built here, with no dropout or batch norm: eval mode changes nothing. A loss
        # written as a Module (`class PairwiseLoss(nn.Module)`) is not the model: that one
        # comes from a caller (a reward model handed to a trainer class)
        got = m.memo["train-mode.model-in-sight"] = any(
            isinstance(n, ast.ClassDef) and is_module_class(m, n) and not n.name.endswith(_NOT_MODELS)
            for n in m.tree.body
        ) or any(_layer(m.qualname(s.node.func) or "") for s in m.w.calls)
    return not got


_NOT_MODELS = ("Loss", "Criterion", "Metric")


# the usual spellings of a model built in the file: a cheap test before the walk above
_BUILT = (b"nn.Module)", b"nn.Linear(", b"nn.Sequential(", b"nn.Conv", b"nn.LSTM(", b"nn.GRU(", b"nn.Embedding(")


def _layer(q: str) -> bool:
    """A torch.nn layer constructor (``torch.nn.Linear``), not a loss or a function."""
    return q.startswith("torch.nn.") and q[9:10].isupper() and not q.endswith("Loss")


def _called_in(m, loop) -> set[str]:
    """Last names of what a loop calls as a model: ``model(x)``, ``self.model(x)``,
    ``model.loss(x, y)`` (the receiver of a method call that is not a tensor or loss op)."""
    out = set()
    calls = [s.node for s in calls_index(m)[0].get(id(loop), [])]
    # and what the same file's helpers called there call (`self.forward_pair(a, b)` running
    # `self.model(...)`): one level down
    for c in list(calls):
        fn = helper_function(m, c)
        if fn is not None:
            calls += [n for n in walk(fn) if isinstance(n, ast.Call) and not (  # (not the mode calls judged)
                isinstance(n.func, ast.Attribute) and n.func.attr in ("eval", "train", "requires_grad_"))]
    for c in calls:
        f = c.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, (ast.Name, ast.Attribute)):
            out.add(_last(text(f.value)))
        if isinstance(f, (ast.Name, ast.Attribute)):
            out.add(_last(text(f)))
    return out


def _classify(m, call: ast.Call) -> str:
    f = call.func
    if isinstance(f, ast.Attribute):
        if f.attr == "eval" and not call.args and not call.keywords:
            return "E"
        if f.attr == "train":
            arg = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "mode"), None)
            if isinstance(arg, ast.Constant) and arg.value is False:
                return "E"
            return "R"
    e = train_event(m, call)
    return e if e in ("B", "S") else ""


def _owners(m, recv) -> set[str]:
    """Names the receiver stands for: its own, or (a parameter) what every call site passes."""
    out = {_last(text(recv))}
    if isinstance(recv, ast.Attribute) and isinstance(recv.value, ast.Name):
        # self.model, bound in __init__ from a parameter: what the class's constructions pass
        d = m.defs(recv.value)
        if d and len(d) == 1 and isinstance(d[0], tuple) and d[0][0] == "self":
            for v in m.w.self_attrs.get((d[0][1].name, recv.attr), ()):
                if isinstance(v, ast.Name):
                    out |= _owners(m, v)
        return out
    if isinstance(recv, ast.Name):
        d = m.defs(recv)
        if d and len(d) == 1 and isinstance(d[0], Param) and d[0].pos is not None:
            p = d[0]
            i = p.pos - (1 if p.bound else 0)
            sites = m.call_sites(p.fn)
            passed = {_last(text(c.args[i])) for c in sites if 0 <= i < len(c.args)}
            if sites and len(passed) == 1 and all(0 <= i < len(c.args) for c in sites):
                out |= passed
    return out


def _mode_free(m, recv, depth: int = 5) -> bool:
    """The receiver is provably a diffusers model (``UNet2DConditionModel.from_pretrained``,
    possibly wrapped by ``get_peft_model``) in a file with no dropout or batch norm in sight:
    GroupNorm and dropout 0 by default, so eval mode changes nothing."""
    src = m.source
    if b"ropout" in src or b"BatchNorm" in src or b"batch_norm" in src or depth <= 0:
        return False
    if isinstance(recv, ast.Name):
        d = m.defs(recv)
        if not d or not all(isinstance(x, ast.expr) for x in d):
            d = _assignments(m).get(recv.id)  # unet, opt = accelerator.prepare(unet, opt): every value ever bound
        d = [x for x in d or () if not (isinstance(x, ast.Name) and x.id == recv.id)]
        return bool(d) and all(_mode_free(m, x, depth - 1) for x in d)
    if not isinstance(recv, ast.Call):
        return False
    f = recv.func
    if isinstance(f, ast.Attribute) and f.attr == "from_pretrained":
        q = m.qualname(f.value) or ""
        return q.startswith("diffusers.")
    if call_name(recv) == "get_peft_model" and recv.args:
        return _mode_free(m, recv.args[0], depth - 1)
    return False


def _assignments(m) -> dict[str, list]:
    """Every value bound to a plain name in the file; ``a, b = x.prepare(a2, b2)`` binds ``a``
    to ``a2`` (accelerate/fabric hand the objects back in order)."""
    got = m.memo.get("train-mode.assignments")
    if got is None:
        got = {}
        for n in walk(m.tree):
            if not isinstance(n, ast.Assign):
                continue
            for t in n.targets:
                if isinstance(t, ast.Name):
                    got.setdefault(t.id, []).append(n.value)
                elif isinstance(t, (ast.Tuple, ast.List)):
                    v = n.value
                    same = (isinstance(v, ast.Call) and call_name(v) in ("prepare", "setup") and len(v.args) == len(t.elts))
                    for i, x in enumerate(t.elts):
                        if isinstance(x, ast.Name):
                            got.setdefault(x.id, []).append(v.args[i] if same else v)
        m.memo["train-mode.assignments"] = got
    return got


def _last(t: str) -> str:
    return t.rsplit(".", 1)[-1]

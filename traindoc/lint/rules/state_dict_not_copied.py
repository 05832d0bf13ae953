"""TD530 state-dict-not-copied: ``best = model.state_dict()`` kept while training goes on."""

from __future__ import annotations

import ast

from ..flow import local_function, ordered_events
from ..registry import Hit, lint_rule
from ..source import call_name, text
from ..training import train_event
from ..walk import walk


@lint_rule(
    "state-dict-not-copied", "TD530", "warning",
    "the best weights are kept as model.state_dict() without a copy: they keep changing as training continues",
    needles=[("state_dict()",)],
    fix="copy the tensors: best = copy.deepcopy(model.state_dict()) (or {k: v.detach().clone() for k, v in ...})",
    confirm="compare best[k] with model.state_dict()[k] a few steps after saving it: they are identical",
)
def check(m):
    """What it detects: inside a loop that trains (it calls `backward()` or an optimizer
    step, directly or through the same file's functions), an assignment of
    `model.state_dict()` itself, without `copy.deepcopy` or a clone, to a name or
    attribute that is later given to `load_state_dict(...)` in the same function (also a
    shallow copy: `.copy()`, `dict(...)`, `{k: v for k, v in sd.items()}`, `v.detach()`) (the
    "restore the best model" pattern); and `init = model.state_dict()` saved before a loop
    that restores it and then trains (one run per optimizer, fold or seed), pointed at the
    `state_dict()` call; and `before = model.state_dict()` taken before a training loop and
    compared with the weights after it (`drift(before, model.state_dict())`,
    `torch.equal(before[k], after[k])`) or restored
    with `load_state_dict(before)`: the snapshot is the trained weights; and a getter that
    returns `self.state_dict()` itself when another object keeps its result (`self.best =
    policy.get_params()`) and hands it back to a method that loads it (flagged at the getter's
    return); and a live state
    dict appended to a list (`self.saved.append(self.state_dict().copy())`) in a file that
    trains.

    Why it happens: `state_dict()` returns references to the live parameter
    tensors, not a snapshot. Every later optimizer step changes the "best" weights too,
    so restoring them at the end restores the last weights, not the best: early stopping
    and model selection silently return the final, possibly overfitted, model (cause
    `overfitting`).

    Example:
        for epoch in range(epochs):
            train_one_epoch(...)
            if val_loss < best_loss:
                best_loss, best_state = val_loss, model.state_dict()   # a view of the live weights
        model.load_state_dict(best_state)                # the last weights

    How to fix:
        best_state = copy.deepcopy(model.state_dict())
    """
    yield from _snapshot_before_training(m)
    yield from _appended_snapshots(m)
    loads = [s for s in m.w.calls if call_name(s.node) == "load_state_dict" and s.node.args]
    if not loads:
        return
    for site in m.w.loops:
        loop = site.node
        if site.ctx.loops:
            continue  # outermost loops: their walk covers the nested ones
        fn = site.ctx.func
        restored = {text(s.node.args[0]) for s in loads if s.ctx.func is fn and s.node.lineno > loop.lineno}
        restored.discard("")
        if not restored:
            continue
        hits = []
        for n in walk(loop):
            if isinstance(n, ast.Assign) and _live_state(n.value):
                hits.extend((n, t) for t in n.targets if text(t) in restored)
            elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Tuple) and len(n.targets) == 1 \
                    and isinstance(n.targets[0], ast.Tuple) and len(n.targets[0].elts) == len(n.value.elts):
                for t, v in zip(n.targets[0].elts, n.value.elts):
                    if _live_state(v) and text(t) in restored:
                        hits.append((n, t))
        if not hits:
            continue
        if not any(e in ("B", "S") for e, _, _ in ordered_events(m, loop, lambda c: train_event(m, c), key="train")):
            continue
        for n, t in hits:
            yield Hit(n, f"`{text(t)}` holds the tensors of model.state_dict() themselves (no deep copy), the live weights: later "
                         "steps change it, so load_state_dict restores the last weights, not the best; "
                         "use copy.deepcopy(model.state_dict())")
    yield from _kept_on_object(m, loads)
    yield from _reset_in_a_loop(m, loads)
    yield from _through_methods(m, loads)


def _snapshot_before_training(m):
    """``before = model.state_dict()`` in a function's body, then a loop that trains, then
    ``before`` compared with the weights after it (given to a call together with another
    ``state_dict()``, or subtracted from one) or restored (``load_state_dict(before)``): the
    "snapshot" is the live weights, so the drift is always 0 and the restore a no-op."""
    for fns in m.w.functions.values():
        for fn in fns:
            body = fn.body
            for i, st in enumerate(body):
                if not (isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name)
                        and _live_state(st.value)):
                    continue
                name = st.targets[0].id
                loop = next((j for j in range(i + 1, len(body)) if _trains_stmt(m, body[j], st.value)), None)
                if loop is None or any(isinstance(t, ast.Name) and t.id == name for k in range(i + 1, loop + 1)
                                       for n in walk(body[k]) if isinstance(n, ast.Assign) for t in n.targets):
                    continue
                use = next((u for k in range(loop + 1, len(body)) for u in walk(body[k]) if _compared(m, u, name)),
                           None)
                if use is not None:
                    yield Hit(st, f"`{name}` holds the tensors of model.state_dict() themselves (no copy), the live "
                                  f"weights: the training on line {body[loop].lineno} changes them too, so what "
                                  f"line {use.lineno} treats as the weights before training are the weights after it; "
                                  "use copy.deepcopy(model.state_dict())",
                              related=((use, "where the snapshot is used after training"),))


def _trains_stmt(m, st, snap: ast.Call) -> bool:
    """A loop that trains, or a call of the file's function that does and is given the
    snapshot's model itself (``finetune(model, loader)``, not ``finetune(copy.deepcopy(model))``)."""
    scope = st if isinstance(st, (ast.For, ast.While)) else None
    owner = text(snap.func.value) if isinstance(snap.func, ast.Attribute) else ""
    if scope is None and isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and owner and any(
            text(a) == owner for a in list(st.value.args) + [k.value for k in st.value.keywords]):
        scope = local_function(m, st.value)
    return scope is not None and any(e in ("B", "S") for e, _, _ in ordered_events(
        m, scope, lambda c: train_event(m, c), key="train"))


def _appended_snapshots(m):
    """``history.append(model.state_dict())`` (or a shallow ``.copy()``) in a file that
    trains: every entry of the list is the same live tensors, the current weights."""
    if not any(w in m.source for w in (b"backward", b"training_step", b".step(")):
        return
    for site in m.w.calls:
        call = site.node
        fn = site.ctx.func
        if fn is not None and "state_dict" in fn.name:
            continue  # building a state dict of sub-objects (a scheduler's): serialised at once
        if call_name(call) == "append" and len(call.args) == 1 and _live_state(call.args[0]) \
                and not any(w in text(call.args[0]).lower() for w in ("sched", "optim", "opt.", "scaler")):
            yield Hit(call, f"`{text(call.func)}(...)` keeps the tensors of model.state_dict() themselves (no "
                            "deep copy): every entry of the list is the same live weights, so all the snapshots "
                            "equal the current weights; append copy.deepcopy(model.state_dict())")


def _compared(m, u, name: str) -> bool:
    """``u`` reads ``name`` as the weights before training: ``load_state_dict(name)``, a call
    given ``name`` and another state dict (or
    ``name[k]`` and ``after[k]``), or ``x - name[k]`` against a fresh ``state_dict()``."""
    if not isinstance(u, ast.Call):
        return False
    args = list(u.args) + [k.value for k in u.keywords]
    if call_name(u) == "load_state_dict":
        return len(args) == 1 and isinstance(args[0], ast.Name) and args[0].id == name
    # ``torch.equal(before[k], after[k])`` compares entry by entry: the subscripted dicts count
    bases = [a.value if isinstance(a, ast.Subscript) else a for a in args]
    if not any(isinstance(a, ast.Name) and a.id == name for a in bases):
        return False
    others = [a for a in bases if not (isinstance(a, ast.Name) and a.id == name)]
    return any(_state_dict_call(a) or isinstance(a, ast.Name) and _fresh_state(m, a) for a in others)


def _fresh_state(m, e: ast.Name) -> bool:
    d = m.defs(e)
    return bool(d) and len(d) == 1 and isinstance(d[0], ast.expr) and _state_dict_call(d[0])


def _reset_in_a_loop(m, loads):
    """``init = model.state_dict()`` before a loop whose iterations restore it and then
    train (one run per optimizer, per fold, per seed): from the second iteration on, the
    "initial" tensors are the trained weights, so every run starts where the last ended."""
    for site in loads:
        arg = site.node.args[0]
        if not site.ctx.loops or not isinstance(arg, ast.Name):
            continue
        d = m.defs(arg)
        if not (d and len(d) == 1 and isinstance(d[0], ast.Call) and call_name(d[0]) == "state_dict"
                and isinstance(d[0].func, ast.Attribute) and not d[0].args):
            continue
        if text(d[0].func.value) != text(site.node.func.value) if isinstance(site.node.func, ast.Attribute) else True:
            continue  # another model's weights loaded into this one: the saved tensors do not change
        loop = site.ctx.loops[0]
        if d[0].lineno >= loop.lineno:
            continue  # saved inside the loop: the pattern above
        events = ordered_events(m, loop, lambda c: train_event(m, c), key="train")
        if any(e in ("B", "S") for e, _, _ in events):
            yield Hit(d[0], f"`{arg.id}` holds the tensors of model.state_dict() themselves (no deep copy), the live weights: the "
                            f"loop on line {loop.lineno} restores it and then trains, so from its second pass on it "
                            "restores the trained weights; use copy.deepcopy(model.state_dict())")


def _kept_on_object(m, loads):
    """An early-stopping or checkpoint helper class: one method keeps ``self.best =
    self.model.state_dict()``, a method of the same class restores it with
    ``load_state_dict(self.best)``; the training between them happens elsewhere."""
    for site in loads:
        cls = site.ctx.cls
        arg = site.node.args[0]
        if cls is None or not (isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name)
                               and arg.value.id == "self"):
            continue
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            for n in walk(fn):
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and text(n.targets[0]) == text(arg) \
                        and _live_state(n.value):
                    yield Hit(n, f"`{text(arg)}` keeps the tensors of model.state_dict() themselves, the live "
                                 f"weights; `{cls.name}` restores it later (line {site.node.lineno}) after more "
                                 "training has changed them, so it restores the last weights, not the best; use "
                                 "copy.deepcopy(model.state_dict())")


def _through_methods(m, loads):
    """The weights kept through a class's own API: ``get_params()`` returns
    ``self.state_dict()`` itself, another object keeps ``self.best = policy.get_params()`` and
    hands it back to ``put_params(p)``, which loads it. The getter's return is the finding."""
    if not any(train_event(m, s.node) == "B" for s in m.w.calls):
        return  # a file that never trains keeps nothing that could change
    for site in loads:
        fn, arg = site.ctx.func, site.node.args[0]
        d = m.defs(arg) if isinstance(arg, ast.Name) and fn is not None else None
        if not (d and len(d) == 1 and getattr(d[0], "fn", None) is fn and d[0].pos is not None):
            continue  # put_params(self, p): self.load_state_dict(p), p a positional parameter
        i = d[0].pos - (1 if d[0].bound else 0)
        kept = {text(c.node.args[i]) for c in m.w.calls if call_name(c.node) == fn.name and len(c.node.args) > i
                and isinstance(c.node.args[i], ast.Attribute)} - {""}
        for n in walk(m.tree):
            if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and text(n.targets[0]) in kept
                    and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute)):
                continue
            for g in m.w.functions.get(n.value.func.attr, ()):
                rets = m.w.returns.get(id(g)) or ()
                if len(m.w.functions[n.value.func.attr]) == 1 and rets and all(_live_state(r) for r in rets):
                    yield Hit(rets[0], f"`{g.name}()` returns the tensors of state_dict() themselves, the live "
                                       f"weights: `{text(n.targets[0])}` (line {n.lineno}) keeps them as a snapshot "
                                       f"and `{fn.name}` restores it (line {site.node.lineno}) after more training "
                                       "has changed them; return copy.deepcopy(self.state_dict())",
                              related=((n, "the snapshot kept"),))


def _state_dict_call(e) -> bool:
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "state_dict" \
        and not e.args


def _live_state(e) -> bool:
    """``model.state_dict()`` or a shallow copy of it whose tensors are still the live
    weights: ``.copy()``, ``dict(...)`` / ``OrderedDict(...)``, ``{k: v for k, v in
    sd.items()}`` (also ``v.detach()``, which shares the storage). A deep copy, ``v.clone()``
    or ``v.cpu()`` (a copy off the GPU) is not."""
    if _state_dict_call(e):
        return True
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "copy" and not e.args:
        return _state_dict_call(e.func.value)
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("dict", "OrderedDict") \
            and len(e.args) == 1 and not e.keywords:
        return _state_dict_call(e.args[0])
    if isinstance(e, ast.DictComp) and len(e.generators) == 1:
        g = e.generators[0]
        it = g.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items"
                and _state_dict_call(it.func.value) and isinstance(g.target, ast.Tuple) and len(g.target.elts) == 2):
            return False
        v = g.target.elts[1]
        val = e.value
        if isinstance(val, ast.Call) and isinstance(val.func, ast.Attribute) and val.func.attr == "detach" \
                and not val.args:
            val = val.func.value
        return isinstance(v, ast.Name) and isinstance(val, ast.Name) and val.id == v.id
    return False

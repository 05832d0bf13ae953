"""TD540 hidden-state-not-detached: an RNN state carried across training iterations without detach()."""

from __future__ import annotations

import ast

from ..flow import calls_index
from ..registry import Hit, lint_rule
from ..source import segment, text
from ..training import backward_target, is_backward
from ..walk import walk


@lint_rule(
    "hidden-state-not-detached", "TD540", "error",
    "a recurrent state fed back into the model on the next training iteration without .detach()",
    needles=[("backward",), ("hidden", "hx", "state", "_h", "h0", "mems", "memory", "carry")],
    fix="detach the state once per iteration (truncated backprop through time): "
        "hidden = tuple(h.detach() for h in hidden) (or hidden.detach()) before the forward pass",
    confirm="the second backward() raises 'Trying to backward through the graph a second time' "
            "(or, with retain_graph=True, each step gets slower and memory grows)",
)
def check(m):
    """What it detects: inside a loop that calls `backward()`, a recurrent state that is
    both an input and an output of the same model call (`output, hidden = model(x, hidden)`
    with a model of the file, a torch.nn module or a callee named like a model, the state
    not being its first output; or `h = cell(x, h)` with an `nn.LSTMCell`/`GRUCell`/`RNN`
    module), so each iteration's state comes from the previous one, while
    nothing in the loop detaches it (no `.detach()`, `.detach_()`, `repackage_hidden`) and
    nothing resets it (no other assignment in the loop, such as
    `hidden = model.init_hidden(bs)`); also when the state comes back under another name
    (`out, new_h = model(x, h)` then `h = new_h`). Also a state kept on the module:
    `out, self.hidden = self.lstm(x, self.hidden)` in a method (also with a model class of
    the file that holds an LSTM/GRU/RNN), with nothing in the class detaching it and no other assignment to that attribute outside `__init__`.

    Why it happens: the returned state carries the autograd graph of every
    iteration before it. The second `backward()` then tries to go back through the first
    iteration's graph, whose buffers were freed: "Trying to backward through the graph a
    second time". The usual "fix", `retain_graph=True`, makes every backward traverse the
    whole history since the start: each step is slower than the last and memory grows
    until it runs out (cause `slow-step`). Truncated backprop through time detaches the
    state at each batch boundary.

    Example:
        hidden = model.init_hidden(batch_size)
        for x, y in batches:
            output, hidden = model(x, hidden)            # graph chained across batches
            loss = criterion(output, y)
            loss.backward(retain_graph=True)

    How to fix:
        for x, y in batches:
            hidden = tuple(h.detach() for h in hidden)   # or hidden.detach() for a GRU
            output, hidden = model(x, hidden)
            criterion(output, y).backward()
    """
    by_loop = calls_index(m)[0]
    done: set[int] = set()
    for site in m.w.loops:
        loop = site.node
        own = by_loop.get(id(loop), ())
        if not any(is_backward(m, s.node) for s in own):
            continue
        seg = segment(m, loop)
        if (b"detach" in seg or b"repackage" in seg) and _detaches_in(loop, _backprop_name(m, own)):
            continue  # (the bytes may be a comment's: "# expect: ...-not-detached")
        assigns: dict[str, list] = {}
        for n in walk(loop):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    for name in _names(t):
                        assigns.setdefault(name, []).append(n)
        for name, nodes in assigns.items():
            carried = [n for n in nodes if isinstance(n.value, ast.Call) and _takes(n.value, name)
                       and _state_of_model(m, n, name)]
            if not carried or len(carried) != len(nodes) or id(carried[0]) in done:
                continue
            n = carried[0]
            if _backprop_name(m, own) == name:
                continue  # the loss itself, not a state
            done.add(id(n))
            yield Hit(n, f"`{name}` is returned by `{text(n.value.func) or 'the model'}(...)` and fed back into it on the "
                         f"next iteration of the training loop (line {loop.lineno}) without .detach(): the graph "
                         "chains across iterations (second backward fails, or retain_graph=True grows without bound)")
        yield from _renamed(m, loop, assigns, done)
        yield from _through_helper(m, loop, done)
    yield from _kept_on_module(m)


def _renamed(m, loop, assigns: dict, done: set):
    """``logits, new_h = model(x, h)`` then ``h = new_h`` in the same loop, the only assignment
    to ``h`` there (Lightning's TBPTT example): the state comes back under another name and is
    fed in again all the same."""
    for name, nodes in assigns.items():
        if len(nodes) != 1 or not isinstance(nodes[0].value, ast.Name) or id(nodes[0]) in done:
            continue
        got = nodes[0].value.id
        call = next((n for n in assigns.get(got, ()) if isinstance(n.value, ast.Call) and _takes(n.value, name)
                     and len(n.targets) == 1 and got not in _names(n.targets[0])[:1]
                     and _state_of_model(m, n, got)), None)
        if call is None or len(assigns.get(got, ())) != 1:
            continue
        done.add(id(nodes[0]))
        yield Hit(nodes[0], f"`{name}` is set to `{got}`, the state `{text(call.value.func) or 'the model'}(...)` returned "
                            f"from it (line {call.lineno}), and fed back in on the next iteration of the training "
                            f"loop (line {loop.lineno}) without .detach(): the graph chains across iterations "
                            "(second backward fails, or retain_graph=True grows without bound)")


def _through_helper(m, loop, done: set):
    """``loss, new_h = self.training_step(batch, h)`` then ``h = new_h`` in the loop, where
    the helper of this file returns the state its model call produced from that parameter
    (``logits, h = self.model(x, h)``; ``return loss, h``): the state is carried all the same."""
    for n in walk(loop):
        if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Tuple)
                and isinstance(n.value, ast.Call)):
            continue
        c = m.callee(n.value)
        fn = c[1][1] if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "func" else None
        if fn is None or _detaches_in(fn):
            continue
        params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
        if params[:1] == ["self"] and isinstance(n.value.func, ast.Attribute):
            params = params[1:]
        for j, p in _state_slots(m, fn).items():
            i = params.index(p) if p in params else -1
            if not (0 <= i < len(n.value.args) and isinstance(n.value.args[i], ast.Name)
                    and j < len(n.targets[0].elts) and isinstance(n.targets[0].elts[j], ast.Name)):
                continue
            name, got = n.value.args[i].id, n.targets[0].elts[j].id
            back = n if got == name else next(
                (a for a in walk(loop) if isinstance(a, ast.Assign) and len(a.targets) == 1
                 and isinstance(a.targets[0], ast.Name) and a.targets[0].id == name
                 and isinstance(a.value, ast.Name) and a.value.id == got), None)
            if back is None or id(back) in done:
                continue
            done.add(id(back))
            yield Hit(back, f"`{name}` comes back from `{text(n.value.func)}(...)` (the state its model call returned) "
                            f"and is fed into it again on the next iteration of the training loop (line {loop.lineno}) "
                            "without .detach(): the graph chains across iterations (second backward fails, or "
                            "retain_graph=True grows without bound)")


def _state_slots(m, fn) -> dict[int, str]:
    """{j: p}: ``fn`` returns, at tuple position j, the state a model call in it produced from
    its parameter ``p`` (``out, h = self.model(x, p)``, ``return loss, h``)."""
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args)} - {"self"}
    made = {}
    for a in walk(fn):
        if isinstance(a, ast.Assign) and len(a.targets) == 1 and isinstance(a.value, ast.Call):
            args = [x.id for x in a.value.args if isinstance(x, ast.Name) and x.id in params]
            for name in _names(a.targets[0]):
                src = name if name in args else args[-1] if len(args) >= 2 else None
                if src is not None and _state_of_model(m, a, name):
                    made[name] = src
    out = {}
    for r in m.w.returns.get(id(fn), ()):
        if isinstance(r, ast.Tuple):
            for j, e in enumerate(r.elts):
                if isinstance(e, ast.Name) and e.id in made:
                    out[j] = made[e.id]
    return out


def _kept_on_module(m):
    """``out, self.hidden = self.lstm(x, self.hidden)`` in a module's method: the state lives
    on the module and every forward chains onto the previous one, unless something detaches
    or resets it (``self.hidden`` assigned anywhere else but ``__init__``, ``model.hidden =
    model.init_hidden()`` in the loop, a ``detach`` in the class)."""
    if b"self." not in m.source or not any(w in m.source for w in (b"LSTM", b"GRU", b"RNN")):
        return  # a state kept on the module needs a torch.nn recurrent layer
    for cls in (n for n in m.tree.body if isinstance(n, ast.ClassDef)):
        for fn in cls.body:
            if not isinstance(fn, ast.FunctionDef) or fn.name == "__init__":
                continue
            for n in walk(fn):
                if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.value, ast.Call)):
                    continue
                if not _recurrent(m, m.callee(n.value)):
                    continue
                for attr in _self_attrs(n.targets[0], skip_first=not isinstance(n.targets[0], ast.Attribute)):
                    fed = any(isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "self"
                              and a.attr == attr for a in n.value.args)
                    if fed and _only_set_here(m, cls, attr, n) and not _detaches(cls):
                        yield Hit(n, f"`self.{attr}` is returned by `{text(n.value.func)}(...)` and fed back into it on "
                                     "the next forward without .detach(): the graph chains across training steps "
                                     "(second backward fails, or memory and step time grow); detach it at each step")


def _detaches(cls) -> bool:
    """A call in the class detaches something (calls, not text: a comment saying "detach"
    is not a detach)."""
    return any(isinstance(c, ast.Call) and ("detach" in text(c.func) or "repackage" in text(c.func))
               for c in walk(cls))


def _recurrent(m, c) -> bool:
    """The callee is a torch.nn recurrent layer, or a model class of this file that holds one
    (``out, self.hidden = self.module_(x, self.hidden)`` in a learner around an RNN LM)."""
    if not (c[0] == "obj" and isinstance(c[1], tuple)):
        return False
    if c[1][0] == "inst":
        return c[1][1] in _RNN
    return c[1][0] == "local" and isinstance(c[1][1], ast.ClassDef) and any(
        isinstance(x, ast.Call) and (m.qualname(x.func) or "") in _RNN for x in walk(c[1][1]))


def _self_attrs(t, skip_first: bool = False) -> list[str]:
    """``self.X`` targets; with ``skip_first`` not the first element (a model's output, not its state)."""
    elts = t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]
    elts = elts[1:] if skip_first and len(elts) > 1 else elts
    return [e.attr for e in elts if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name)
            and e.value.id == "self"]


def _only_set_here(m, cls, attr: str, here) -> bool:
    """No assignment to ``<anything>.attr`` in the file besides ``here`` and ``cls.__init__``."""
    init = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
    inside_init = {id(x) for x in walk(init)} if init is not None else set()
    for n in walk(m.tree):
        if isinstance(n, (ast.Assign, ast.AugAssign)) and n is not here and id(n) not in inside_init:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                elts = t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]
                if any(isinstance(e, ast.Attribute) and e.attr == attr for e in elts):
                    return False
    return True


_RNN = frozenset("torch.nn.LSTM torch.nn.GRU torch.nn.RNN torch.nn.LSTMCell torch.nn.GRUCell torch.nn.RNNCell".split())
_MODELISH = ("model", "net", "rnn", "lstm", "gru", "cell", "encoder", "decoder", "policy", "lm")


def _state_of_model(m, n: ast.Assign, name: str) -> bool:
    """``out, name = model(x, name)`` (a model call, the state not its first output) or
    ``name = cell(x, name)`` with an RNN module."""
    c = m.callee(n.value)
    k = c[1] if c[0] == "obj" and isinstance(c[1], tuple) else None
    if k is not None and k[0] == "inst" and k[1] in _RNN:
        return True
    t = n.targets[0] if len(n.targets) == 1 else None
    if not isinstance(t, (ast.Tuple, ast.List)) or len(t.elts) < 2 or _names(t.elts[0]) == [name]:
        return False
    if k is not None and (k[0] in ("local", "seq") or k[0] == "inst" and k[1].startswith("torch.nn.")):
        return True
    last = text(n.value.func).rsplit(".", 1)[-1].lower()
    return any(w in last for w in _MODELISH)


def _detaches_in(loop, loss: str | None = None) -> bool:
    """Code in the loop (not a comment) that detaches: ``.detach()``, ``.detach_()``,
    ``repackage_hidden(...)``; not the loss detached for logging (``self.log("loss",
    loss.detach())``), which leaves the state's graph as it is."""
    for n in walk(loop):
        if isinstance(n, ast.Attribute) and n.attr in ("detach", "detach_"):
            if isinstance(n.value, ast.Name) and (n.value.id == loss or "loss" in n.value.id.lower()):
                continue
            return True
        if isinstance(n, ast.Name) and "repackage" in n.id or isinstance(n, ast.Attribute) and "repackage" in n.attr:
            return True
    return False


def _names(t) -> list[str]:
    if isinstance(t, ast.Name):
        return [t.id]
    if isinstance(t, (ast.Tuple, ast.List)):
        return [x for e in t.elts for x in _names(e)]
    return []


def _takes(call: ast.Call, name: str) -> bool:
    """``name`` is passed to the call (as an argument, not as the receiver)."""
    args = [*call.args, *(k.value for k in call.keywords)]
    return any(isinstance(a, ast.Name) and a.id == name for a in args)


def _backprop_name(m, sites) -> str:
    for s in sites:
        if is_backward(m, s.node):
            t = backward_target(s.node)
            if isinstance(t, ast.Name):
                return t.id
    return ""

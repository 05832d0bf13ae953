"""TD520 backward-without-graph: backward() on a loss computed under no_grad or from detached outputs."""

from __future__ import annotations

import ast
import re

from .. import names as N
from ..flow import local_function, single_def
from ..detached_terms import detached as _detached, detached_loss_term, item_term, once as _once
from ..grad_mode import decorated_no_grad, filled_under_no_grad, no_grad_helper
from ..ops import loss_of
from ..registry import Hit, lint_rule
from ..source import short, text
from ..walk import walk


@lint_rule(
    "backward-without-graph", "TD520", "error",
    "backward() on a loss computed under torch.no_grad() (or inference_mode), from .detach()ed model outputs, or "
    "re-made from values (torch.tensor(loss, requires_grad=True), torch.tensor(log_probs))",
    needles=[("backward",), ("no_grad", "inference_mode", "detach", ".data", "tensor", "Tensor", "Variable",
                             "requires_grad", "from_numpy")],
    fix="compute the training forward pass and loss outside torch.no_grad(), on the model output itself (no .detach())",
    confirm="print loss.requires_grad and loss.grad_fn before backward(): False / None",
)
def check(m):
    """What it detects: `loss.backward()` (also `scaler.scale(loss).backward()`) where
    `loss` was assigned inside a `with torch.no_grad():` / `torch.inference_mode()` block
    (backward inside or after it), or in a function decorated with one (and not re-enabled
    with `torch.enable_grad()`); a loss whose input is a `.detach()`ed or `.data` tensor
    (`loss = criterion(out.detach(), y)`), an output computed under `torch.no_grad()`, or
    a tensor re-made from values (`torch.tensor(out)`, `torch.Tensor(list_of_outputs)`,
    `torch.stack([torch.tensor(p) ...])`, `torch.from_numpy(out.detach().numpy())`); a loss
    re-made from its own value to silence the error (`loss = torch.tensor(loss,
    requires_grad=True)`, `Variable(loss, requires_grad=True)`, `loss.requires_grad =
    True`, `loss.requires_grad_()`), also inside a same-file loss function whose result
    is backpropagated; and REINFORCE on copies
    (`-(torch.tensor(log_probs) * returns).sum()`). A GAN's `D(fake.detach())` is not
    flagged (the detach is inside the model call, which still has a graph through D), nor
    are targets computed under no_grad (a DQN target, a distillation teacher, also as the
    first argument of a symmetric loss such as MSE), data re-made as tensors (returns,
    PPO's `old_log_probs`), or a tensor created with `requires_grad=True` to be fitted.
    Also: a loss whose input is what a same-file helper returns from inside
    `torch.no_grad()` (`def refine(...): with torch.no_grad(): return self.model(...)`,
    pointed at that block), and backward on an item of a list of numbers whose items are
    only ever assigned under `torch.no_grad()` (`losses[k] += loss` in a no-grad block,
    then `losses[-1].backward()`). The finding points at the backward call, or at the
    re-making call, the `requires_grad` line or the helper's no-grad block when that is
    where the graph was thrown away. And a loss term detached inside the sum that is
    backpropagated (`loss = rec + lam * F.bce(d, ones).detach()`), pointed at that term.

    Why it happens: under no_grad no graph is recorded and a detached tensor has
    none, so the loss has no `grad_fn`. `backward()` then raises "element 0 of tensors does
    not require grad and does not have a grad_fn", or, when some other term of the loss
    still has a graph, silently trains only that term while the model that produced the
    detached output gets no gradient (cause `params-not-updated`). `torch.tensor(x)`,
    `.item()` and `.numpy()` copy values out of the graph the same way; setting
    `requires_grad=True` on the copy makes the error go away and leaves a leaf that
    nothing upstream depends on, so the loss prints and the weights never move.

    Example:
        with torch.no_grad():
            out = model(x)
            loss = criterion(out, y)
            loss.backward()                              # no graph

    How to fix:
        out = model(x)                                   # grad mode for the training pass
        loss = criterion(out, y)
        loss.backward()
        # keep torch.no_grad() for evaluation and for targets (EMA teachers, replay buffers)
    """
    grad_withs = None
    seen: set = set()
    for site in m.w.calls:
        call = site.node
        name = _loss_name(call)
        if name is None:
            continue
        d = m.defs(name)
        if not d or not all(isinstance(x, ast.expr) for x in d):
            continue
        if grad_withs is None:
            grad_withs = _grad_mode_withs(m)
        where = _under_no_grad(m, site, d, grad_withs)
        if where:
            yield Hit(call, f"backward() on `{name.id}`, computed {where}: no autograd graph was recorded "
                            "(RuntimeError, or no gradient for that part of the loss)")
            continue
        one = single_def(m, name)
        made = _returned_rewrap(m, one) if isinstance(one, ast.Call) else None
        how = _rewrap(m, made if made is not None else one) if one is not None else ""
        if how:  # (a loss function backpropagated at several places reports once)
            yield from _once(seen, made if made is not None else one, f"`{name.id}` is re-made from a value with "
                             f"{how} and then backpropagated (line {call.lineno}): a new leaf with no graph to the "
                             "parameters, so the model gets no gradient (requires_grad=True only silences 'does "
                             "not require grad')")
            continue
        flag = _requires_grad_set(m, site, name)
        if flag is not None:
            yield Hit(flag, f"requires_grad set on `{name.id}` before its backward() (line {call.lineno}): that "
                            "only works on a leaf, so the loss has no graph to the parameters and the model gets "
                            "no gradient; find where the graph is cut (torch.tensor(...), .item(), .detach(), "
                            "torch.no_grad())")
            continue
        if isinstance(one, ast.Call):
            lc = loss_of(m, one)
            if lc and _detached(lc[1]):
                yield Hit(call, f"backward() on `{name.id}` (line {one.lineno}), a loss of a detached tensor: "
                                "no gradient reaches the model that produced it")
                continue
            if lc:
                cut = _cut(m, lc[1], grad_withs, one, 2)
                if cut and (lc[0] in N.ASYMMETRIC_LOSSES or _cut(m, lc[2], grad_withs, one, 2)):
                    yield Hit(call, f"backward() on `{name.id}` (line {one.lineno}), a loss of {cut}: no "
                                    "gradient reaches the model that produced it")
                    continue
        cut = _no_grad_source(m, one, site.ctx.func, grad_withs, call) if one is not None else None
        if cut is not None:
            yield from _once(seen, cut[0], f"{cut[1]}, and `{name.id}` is backpropagated from it (line "
                                           f"{call.lineno}): no graph was recorded there, so that part of the loss "
                                           "sends no gradient to the model")
            continue
        yield from _cut_terms(m, one, name, call, seen)


def _cut_terms(m, one, name, call, seen):
    """A term of the loss ``one`` re-made from values, detached, or turned into a float (``.item()``)."""
    term = item_term(m, name, _graph_word)
    if term is not None:
        yield from _once(seen, term, f"`{short(term)}` is a Python float: `{name.id}` (backward on line "
                                     f"{call.lineno}) gets no gradient through it; keep the tensor (drop .item())")
        return
    if one is None:
        return
    term = _rewrapped_term(m, one, 3)
    if term is not None:
        yield Hit(term, f"`{short(term)}` copies the values out of the autograd graph: `{name.id}` (backward on line "
                        f"{call.lineno}) sends no gradient through it; keep the tensors (torch.stack(log_probs))")
        return
    term = detached_loss_term(m, one)
    if term is not None:
        yield from _once(seen, term, f"`{short(term)}` is a loss term cut from the graph: it adds to `{name.id}` "
                                     f"(backward on line {call.lineno}) but trains nothing; drop the .detach()")


_REWRAP = frozenset({"torch.tensor", "torch.Tensor", "torch.FloatTensor", "torch.DoubleTensor",
                     "torch.cuda.FloatTensor", "torch.from_numpy", "numpy.array", "numpy.asarray"})
_VARIABLE = frozenset({"torch.autograd.Variable", "torch.autograd.variable.Variable"})
_GRAPH_WORDS = ("log_prob", "logprob", "logp", "loss", "logits")
_SAME = frozenset({"float", "double", "to", "cuda", "cpu", "view", "reshape", "squeeze", "unsqueeze", "flatten",
                   "contiguous", "requires_grad_", "type"})


def _returned_rewrap(m, call: ast.Call):
    """The ``torch.tensor(loss, requires_grad=True)`` a same-file function returns (every return
    of it, directly or through one name): ``loss = loss_fn(out, y)`` then ``loss.backward()``."""
    c = m.callee(call)
    if c[0] != "obj" or not isinstance(c[1], tuple) or c[1][0] != "func":
        return None
    rets = m.w.returns.get(id(c[1][1]))
    if not rets:
        return None
    made = []
    for r in rets:
        r = single_def(m, r) if isinstance(r, ast.Name) else r
        if r is None or not _rewrap(m, r):
            return None
        made.append(r)
    return made[0]


def _literal(e) -> bool:
    if isinstance(e, ast.Constant):
        return True
    if isinstance(e, ast.UnaryOp):
        return _literal(e.operand)
    if isinstance(e, (ast.List, ast.Tuple)):
        return all(_literal(x) for x in e.elts)
    return False


def _rewrap(m, e) -> str:
    """How ``e`` re-makes a tensor from values, cutting the graph: ``torch.tensor(loss,
    requires_grad=True)``, ``Variable(loss, requires_grad=True)``, ``torch.Tensor(losses)``."""
    if not isinstance(e, ast.Call) or len(e.args) < 1 or _literal(e.args[0]):
        return ""
    q = m.qualname(e.func) or ""
    if q in _REWRAP and q.startswith("torch."):
        return f"`{q}(...)`"
    if q in _VARIABLE and any(k.arg == "requires_grad" for k in e.keywords):
        return "`Variable(..., requires_grad=True)`"
    return ""


def _cut(m, e, withs, at, depth: int) -> str:  # noqa: C901
    """What cuts ``e`` (an input of a loss computed at ``at``) from the graph, or ""."""
    if e is None or depth < 0:
        return ""
    if _detached(e):
        return "a detached tensor"
    if isinstance(e, ast.Name):
        defs = m.defs(e)
        if not defs or not all(isinstance(x, ast.expr) for x in defs):
            return ""
        w = _def_under_no_grad(defs, withs)
        if w is not None and not _inside(at, w):
            return f"`{e.id}`, computed under torch.no_grad() (line {w.lineno})"
        if len(defs) == 1:
            return _cut(m, defs[0], withs, at, depth - 1)
        return ""
    if not isinstance(e, ast.Call):
        return ""
    how = _rewrap(m, e)
    if how:
        return f"a tensor re-made with {how}"
    q = m.qualname(e.func) or ""
    if q in ("torch.stack", "torch.cat") and e.args and isinstance(e.args[0], (ast.List, ast.ListComp)):
        a = e.args[0]
        elts = [a.elt] if isinstance(a, ast.ListComp) else a.elts
        if elts and all(_rewrap(m, x) for x in elts):
            return f"`{q}` of tensors re-made with {_rewrap(m, elts[0])}"
        return ""
    if isinstance(e.func, ast.Attribute) and e.func.attr in _SAME and q == "":
        return _cut(m, e.func.value, withs, at, depth)
    return ""


def _no_grad_source(m, one, fn, withs, back):
    """(node to point at, what happened) when a term of the loss ``one`` comes out of a
    grad-off block: a loss whose input (through names and shape methods) is what a same-file
    helper returns from inside ``torch.no_grad()``, or an item of a list filled only under
    ``torch.no_grad()`` (``losses_q[-1]``, pointed at the backward call ``back``); else None."""
    if b"no_grad" not in m.source and b"inference_mode" not in m.source:
        return None  # both patterns need a grad-off block (or decorator) in the file
    w = filled_under_no_grad(m, one, fn, withs)
    if w is not None:
        return back, f"backward() on an item of `{text(one.value)}`, whose items are only ever assigned inside " \
                     f"the torch.no_grad() block on line {w.lineno}"
    helper = local_function(m, one) if isinstance(one, ast.Call) else None
    blk = no_grad_helper(m, helper, withs) if helper is not None else None
    if blk is not None:  # the loss itself is what the helper computed under no_grad
        return blk, f"`{helper.name}` computes its result inside torch.no_grad(), and that result is the loss"
    for c in (n for n in walk(one) if isinstance(n, ast.Call)):
        lc = loss_of(m, c)
        if not lc or lc[0] not in N.ASYMMETRIC_LOSSES:
            continue  # a symmetric loss's first argument may be the no-grad target
        e = lc[1]
        for _ in range(3):
            while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in _SHAPE:
                e = e.func.value
            e = single_def(m, e) if isinstance(e, ast.Name) else e
        helper = local_function(m, e) if isinstance(e, ast.Call) else None
        blk = no_grad_helper(m, helper, withs) if helper is not None else None
        if blk is not None:
            return blk, f"`{helper.name}` returns from inside torch.no_grad(), and its output is the input of " \
                        f"`{lc[0]}` (line {c.lineno})"
    return None


_SHAPE = _SAME | {"transpose", "permute", "view_as", "reshape_as", "mT", "t"}


def _rewrapped_term(m, e, depth: int):
    """A ``torch.tensor(log_probs)`` term of a hand-written loss (REINFORCE), directly or through
    one name: the values of a graph-carrying list copied into a new tensor."""
    if depth < 0:
        return None
    if isinstance(e, ast.BinOp):
        return _rewrapped_term(m, e.left, depth - 1) or _rewrapped_term(m, e.right, depth - 1)
    if isinstance(e, ast.UnaryOp):
        return _rewrapped_term(m, e.operand, depth - 1)
    if isinstance(e, ast.Name):
        one = single_def(m, e)
        if one is not None and (_graph_rewrap(m, one) or _rewrap(m, one) and _graph_word(e.id)):
            return one  # log_probs = torch.tensor([t[1] for t in memory])
        return None
    if not isinstance(e, ast.Call):
        return None
    if _graph_rewrap(m, e):
        return e
    f = e.func
    if isinstance(f, ast.Attribute) and f.attr in ("sum", "mean", "neg", "__neg__") and m.qualname(f) is None:
        return _rewrapped_term(m, f.value, depth - 1)
    if m.qualname(f) in ("torch.sum", "torch.mean") and e.args:
        return _rewrapped_term(m, e.args[0], depth - 1)
    return None


def _graph_rewrap(m, e) -> bool:
    """``torch.tensor(log_probs)``: a rewrap of a name that says it holds graph values (not ``old_...``)."""
    if not _rewrap(m, e):
        return False
    return _graph_word(text(e.args[0]))


_DATA_WORDS = ("old", "weight", "coef", "scale", "mask", "lam", "factor", "target", "label", "reward", "return")


def _graph_word(t: str) -> bool:
    """A name that says it holds values of the graph (``log_probs``, ``losses``), not data about
    them (``old_log_probs``, ``loss_weights``)."""
    t = t.lower()
    return any(w in t for w in _GRAPH_WORDS) and not any(w in t for w in _DATA_WORDS)


_SET_FLAG = re.compile(rb"\.requires_grad\s*=\s*True")


def _requires_grad_set(m, site, name: ast.Name):
    """The statement that sets ``name.requires_grad = True`` (or the call ``name.requires_grad_()``)
    before its backward in the same function, or None."""
    fn = site.ctx.func
    key = ("bwg-rg", id(fn))
    found = m.memo.get(key)
    if found is None:
        found = m.memo[key] = []
        for s in m.w.calls:
            c = s.node
            if s.ctx.func is fn and isinstance(c.func, ast.Attribute) and c.func.attr == "requires_grad_" \
                    and isinstance(c.func.value, ast.Name) \
                    and not any(isinstance(a, ast.Constant) and a.value is False for a in c.args):
                found.append((c.func.value.id, c))
        if _SET_FLAG.search(m.source):  # the assignment form: walk this function only when the file has one
            for st in (fn.body if fn is not None else m.tree.body):
                for n in walk(st):
                    if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute) \
                            and n.targets[0].attr == "requires_grad" and isinstance(n.targets[0].value, ast.Name) \
                            and isinstance(n.value, ast.Constant) and n.value.value is True:
                        found.append((n.targets[0].value.id, n))
    call = site.node
    for nid, st in found:
        if nid == name.id and st.lineno < call.lineno:
            return st
    return None


def _def_under_no_grad(defs, withs):
    """The grad-off ``with`` block every def sits in (innermost grad-mode block), or None."""
    out = None
    for d in defs:
        around = [(w, mode) for w, mode in withs if _inside(d, w)]
        if not around:
            return None
        w, mode = max(around, key=lambda x: x[0].lineno)
        if mode != "off" or out is not None and w is not out:
            return None
        out = w
    return out


def _loss_name(call: ast.Call):
    f = call.func
    if not isinstance(f, ast.Attribute) or f.attr != "backward":
        return None
    r = f.value
    if isinstance(r, ast.Call) and isinstance(r.func, ast.Attribute) and r.func.attr == "scale" and r.args:
        r = r.args[0]
    return r if isinstance(r, ast.Name) else None


def _grad_mode_withs(m) -> list:
    """(with node, 'off' | 'on') for every grad-mode ``with`` of the file."""
    out = []
    for s in m.w.withs:
        for item in s.node.items:
            e = item.context_expr
            if isinstance(e, ast.Call):
                q = m.qualname(e.func)
                if q in N.NO_GRAD:
                    on = q == "torch.enable_grad" or (q.endswith("set_grad_enabled") and not (
                        e.args and isinstance(e.args[0], ast.Constant) and e.args[0].value is False))
                    out.append((s.node, "on" if on else "off"))
    return out


def _inside(node, w) -> bool:
    return w.lineno < node.lineno <= (w.end_lineno or w.lineno) and w.body[0].lineno <= node.lineno


def _under_no_grad(m, site, defs, withs) -> str:
    call = site.node
    # innermost grad-mode block around the backward call
    around = [(w, mode) for w, mode in withs if _inside(call, w)]
    if around:
        w, mode = max(around, key=lambda x: x[0].lineno)
        if mode == "off" and all(_inside(d, w) for d in defs) and not any(
                mode2 == "on" and _inside(d, w2) for d in defs for w2, mode2 in withs if w2 is not w):
            return f"inside the torch.no_grad() block on line {w.lineno}"
        return ""
    w = _def_under_no_grad(defs, withs)
    if w is not None:
        return f"inside the torch.no_grad() block on line {w.lineno}"
    fn = site.ctx.func
    if fn is not None and decorated_no_grad(m, fn):
        if not any(mode == "on" and _inside(d, w) for d in defs for w, mode in withs):
            return f"in `{fn.name}`, decorated with torch.no_grad()"
    return ""

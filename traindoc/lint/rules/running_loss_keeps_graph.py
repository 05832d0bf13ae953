"""TD516 running-loss-keeps-graph: ``total += loss`` on the tensor that was just backpropagated."""

from __future__ import annotations

import ast

from .. import names as N
from ..accumulate import accumulations, loss_name, output_loss
from ..flow import calls_index, helper_function, local_function, params_given
from ..registry import Hit, lint_rule
from ..source import segment, short, text
from ..walk import walk


@lint_rule(
    "running-loss-keeps-graph", "TD516", "warning",
    "a running total (or list) of the training loss accumulates the loss tensor itself, keeping every step's graph",
    needles=[("backward", "autograd.grad"), ("+=", "append", "= total", "+ loss", ".update(", ".add(", ".add_(", "] = ")],
    fix="accumulate a number: total += loss.item() (or loss.detach() to stay on the device)",
    confirm="print torch.cuda.memory_allocated() (or the process RSS) every 100 steps: it keeps growing",
)
def check(m):
    """What it detects: inside a loop that calls `loss.backward()` (also
    `scaler.scale(loss).backward()`, `accelerator.backward(loss)`), the same `loss`
    tensor, or one of the terms it was summed from (`loss = mse + ce`: `mse`, `ce`), added
    to a running total or appended to a list: `total_loss += loss`, `running_ce += ce`,
    `running = running + loss * x.size(0)`, `losses.append(loss)` (or a record holding it,
    `outputs.append({"loss": loss})`), `stat.add_(loss)`, an averaging meter's
    `meter.update(loss, n)` / `meter.update([ce, kl])` (a name with meter/avg/running, or a
    class of the file whose `update`/`add` sums), for `losses["total"].backward()` any
    `totals[k] += losses[k]`, and a loss that a step function of the file backpropagated
    and returned (`loss = train_step(batch)`), when that total is never itself
    backpropagated; and in a step function without a loop, the loss kept on an attribute
    that outlives the call (`self.history["G"].append(g_loss)`, `self.total += loss`); and a helper of
    the file the training loop hands the loss to (`reporter.add(loss)` whose body does
    `self.total += loss`) or the model output to (`metric.update(state, logits, y)` whose body
    appends `self.ce(logits, y)` to `state`), reported at the line in the helper. `loss.item()`, `loss.detach()`, `loss.data` and `float(loss)` are fine.

    Why it happens: `loss` carries its autograd history (`grad_fn`). Adding it to
    a tensor builds a new graph node that references the step's graph, so the total holds
    on to the history of every step of the epoch: memory grows step after step (the
    PyTorch FAQ's first example), and printing or averaging the total at the end walks a
    graph as long as the epoch. On GPUs this ends in an out-of-memory error hours into
    the run.

    Example:
        for x, y in loader:
            loss = criterion(model(x), y)
            loss.backward(); opt.step(); opt.zero_grad()
            total_loss += loss                           # keeps the graph of every step

    How to fix:
        total_loss += loss.item()                        # a Python float
        # or: total_loss += loss.detach()               # stays on the GPU, no sync
    """
    back: dict[int, set[str]] = {}
    fns: dict[int, object] = {}
    bound: dict[tuple, set[int]] = {}  # (function, name): the bindings of the name that reach a backward
    for site in m.w.calls:
        e = _backwarded_expr(site.node)
        if e is not None:
            back.setdefault(id(site.ctx.func), set()).add(text(e))
            fns[id(site.ctx.func)] = site.ctx.func
            base = e.value if isinstance(e, ast.Attribute) else e
            bound.setdefault((id(site.ctx.func), text(e)), set()).update(id(d) for d in (m.defs(base) or ()))
    if not back:
        return
    yield from _kept_on_self(m, fns, back, bound)
    # functions that backpropagate a loss and return it (``loss = train_step(batch)``)
    stepping = {k: _loss_slots(m.w.returns.get(k, ()), back[k]) for k, fn in fns.items() if fn is not None}
    stepping = {k: v for k, v in stepping.items() if v}
    seen: set[int] = set()
    by_loop = calls_index(m)[0]
    for site in m.w.loops:
        if site.ctx.loops:
            continue  # outermost loops only: ast.walk covers the nested ones
        calls = by_loop.get(id(site.node), ())
        returned = _returned_losses(m, site.node, stepping) if stepping else set()
        names = back.get(id(site.ctx.func), set()) | returned
        if not names:
            continue
        if not returned and not any(_backwarded(s.node) for s in calls):
            continue
        held = names | _terms(site.node, names, m)
        yield from _kept_by_helper(m, site.node, held, seen)
        seg = segment(m, site.node)
        if b"+=" not in seg and b"append(" not in seg and b"+ " not in seg and b"update(" not in seg \
                and b"add(" not in seg and b"add_(" not in seg and b"] = " not in seg:
            continue
        loop = site.node
        if id(loop) in seen:
            continue
        seen.add(id(loop))
        for node, tgt, v, how in accumulations(loop, held, m):
            if not tgt or tgt in names or tgt.rsplit(".", 1)[-1] in names:
                continue  # the total is what gets backpropagated
            if v not in returned and _other_binding(m, node, v, bound.get((id(site.ctx.func), v))):
                continue  # the same name bound again (an evaluation loss after the training loop)
            what = {"append": f"`{tgt}.append({short(node.args[0]) if how == 'append' else v})`", "update": f"`{tgt}.update({v}, ...)`",
                    "add": f"`{tgt}.add(..., {v})`", "add_": f"`{tgt}.add_({v})`"}.get(how, f"`{tgt} = {tgt} + {v}`")
            if how in ("+=", "setitem"):
                what = f"`{short(node.target)} += {v}`" if how == "+=" else f"`{short(node.targets[0])} = {v}`"
            whose = "the loss tensor that backward() just used" if v.split("[", 1)[0] in names else \
                "a term of the loss that backward() just used"
            yield Hit(node, f"{what} accumulates {whose}: it keeps every step's "
                            f"autograd graph alive and memory grows each step; use {v}.item() (or {v}.detach())")


def _kept_by_helper(m, loop, names: set[str], seen: set[int]):
    """A same-file helper the training loop hands the loss to, or an input of the loss, that
    keeps it beyond the call: ``reporter.add_batch(loss)`` whose body does ``self.total +=
    loss``; ``metric.aggregate(state, logits, y)`` whose body appends ``self.criterion(pred,
    y)`` to ``state``. Kept on ``self`` or in a container passed in, it outlives the step."""
    upstream = _loss_inputs(loop, names)
    direct = {id(a[0]) for a in accumulations(loop, names, m)}  # meter.update(loss): reported at the call
    for n in walk(loop):
        fn = helper_function(m, n) if isinstance(n, ast.Call) and id(n) not in direct else None
        if fn is None:
            continue
        given = params_given(fn, n)
        held = {p for a, p in given if a in names}
        fed = {p for a, p in given if a in upstream}
        rebound = {t.id for x in walk(fn) if isinstance(x, (ast.Assign, ast.AugAssign))
                   for t in (x.targets if isinstance(x, ast.Assign) else [x.target]) if isinstance(t, ast.Name)}
        outer = {a.arg for a in fn.args.args} | {"self"}
        for node, tgt, v, how in accumulations(fn, held - rebound, m):
            if id(node) in seen or _base(tgt) not in outer or _base(tgt) in held:
                continue
            seen.add(id(node))
            yield Hit(node, f"`{tgt}` keeps `{v}`, the loss tensor the training loop backpropagated and handed to "
                            f"`{fn.name}()`: it outlives the step, so every call keeps that step's autograd graph "
                            f"and memory grows; use {v}.item() (or {v}.detach())")
        for node, tgt in _kept_losses(m, fn, fed - rebound):
            if id(node) in seen or _base(tgt) not in outer:
                continue
            seen.add(id(node))
            yield Hit(node, f"`{tgt}` keeps a loss computed in `{fn.name}()` from an input of the training loss "
                            f"(the model output, still attached to the graph): it outlives the step, so every "
                            f"call keeps that step's autograd graph and memory grows; keep .item() (or compute "
                            f"it on a .detach()ed output)")


def _base(tgt: str) -> str:
    return tgt.split(".", 1)[0].split("[", 1)[0]


def _loss_inputs(loop, names: set[str]) -> set[str]:
    """Names passed first to the calls that compute a backpropagated loss in the loop
    (``loss = F.cross_entropy(logits, y)``: ``logits``, the input that carries the graph)."""
    out = set()
    for n in walk(loop):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and n.targets[0].id in names:
            out.update(c.args[0].id for c in walk(n.value)
                       if isinstance(c, ast.Call) and c.args and isinstance(c.args[0], ast.Name))
    return out - names


def _kept_losses(m, fn, fed: set[str]):
    """``(node, total)`` where ``fn`` appends (or adds) to a total a loss call whose input is one of ``fed``."""
    for n in walk(fn) if fed else ():
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "append" and len(n.args) == 1:
            v, tgt = n.args[0], text(n.func.value)
        elif isinstance(n, ast.AugAssign) and type(n.op) is ast.Add:
            v, tgt = n.value, text(n.target)
        else:
            continue
        if tgt and isinstance(v, ast.Call) and _is_loss_call(m, v) \
                and v.args and isinstance(v.args[0], ast.Name) and v.args[0].id in fed:
            yield n, tgt


def _is_loss_call(m, call: ast.Call) -> bool:
    c = m.callee(call)
    if c[0] == "fn":
        return c[1] in N.LOSS_FNS
    return c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "inst" \
        and c[1][1].startswith("torch.nn.") and c[1][1].endswith("Loss")


def _kept_on_self(m, fns: dict, back: dict, bound: dict):
    """A step function (no loop around it in the function itself) that keeps the loss it
    backpropagated on ``self``: the attribute outlives the call, so each call adds a graph."""
    for k, fn in fns.items():
        if fn is None:
            continue
        in_loops = {id(n) for lp in walk(fn) if isinstance(lp, (ast.For, ast.While)) for n in walk(lp)}
        names = back[k]
        for node, tgt, v, how in accumulations(fn, names, m):
            if id(node) in in_loops or not tgt.startswith("self.") or tgt.rsplit(".", 1)[-1] in names:
                continue
            if _other_binding(m, node, v, bound.get((k, v))):
                continue
            what = f"`{short(node.target)} += {v}`" if how == "+=" else f"`{short(node.targets[0])} = {v}`" \
                if how == "setitem" else f"`{short(node.func.value)}.{how}({v})`"
            yield Hit(node, f"{what} keeps the loss tensor that backward() just used on an attribute that outlives "
                            f"the step: every call adds that step's autograd graph and memory grows; use "
                            f"{v}.item() (or {v}.detach())")


def _loss_slots(returns, names: set[str]) -> set[int]:
    """Where a function returns a loss it backpropagated: -1 for ``return loss``, i for the
    i-th element of ``return loss, val_loss``."""
    out = set()
    for r in returns:
        if isinstance(r, ast.Name) and r.id in names:
            out.add(-1)
        elif isinstance(r, ast.Tuple):
            out.update(i for i, e in enumerate(r.elts) if isinstance(e, ast.Name) and e.id in names)
    return out


def _returned_losses(m, loop, stepping: dict[int, set[int]]) -> set[str]:
    """Names a loop binds to what a same-file step function returns after backpropagating
    it: ``loss = self.train_step(x, y)``, ``train_loss, val_loss = run_epoch(...)``."""
    out = set()
    for n in walk(loop):
        if type(n) is ast.Assign and len(n.targets) == 1 and isinstance(n.targets[0], ast.Tuple) \
                and isinstance(n.value, ast.Call):
            fn = helper_function(m, n.value)
            elts = n.targets[0].elts
            for i in stepping.get(id(fn), ()) if fn is not None else ():
                # -1: the whole value backpropagated (`losses[-1].backward(); return losses`): every element
                out.update(e.id for j, e in enumerate(elts) if isinstance(e, ast.Name) and i in (j, -1))
        if type(n) is ast.Assign and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and isinstance(n.value, ast.Call):
            fn = local_function(m, n.value)
            if fn is None and _closure_step(n.value):
                # loss = optimizer.step(closure): LBFGS returns what the closure returned
                d = m.defs(n.value.args[0])
                fn = d[0] if d and len(d) == 1 and isinstance(d[0], (ast.FunctionDef, ast.AsyncFunctionDef)) else None
            if fn is not None and -1 in stepping.get(id(fn), ()):
                out.add(n.targets[0].id)
    return out


def _closure_step(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr == "step" and len(call.args) == 1 \
        and isinstance(call.args[0], ast.Name)


def _terms(loop: ast.AST, names: set[str], m=None) -> set[str]:
    """Names summed into a backpropagated loss inside the loop (``loss = mse + 0.1 * ce``:
    ``mse``, ``ce``): each carries its share of the same graph."""
    out: set[str] = set()

    def add(e):
        if isinstance(e, ast.Name):
            out.add(e.id)
        elif isinstance(e, ast.BinOp) and type(e.op) in (ast.Add, ast.Sub, ast.Mult):
            add(e.left)
            add(e.right)

    for n in walk(loop):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and n.targets[0].id in names and isinstance(n.value, ast.BinOp) and type(n.value.op) is ast.Add:
            add(n.value)
        elif m is not None and isinstance(n, ast.Assign) and len(n.targets) == 1 \
                and isinstance(n.targets[0], ast.Tuple) and isinstance(n.value, ast.Call):
            out.update(_returned_terms(m, n.targets[0], n.value, names))
    return out - names


def _returned_terms(m, tgt: ast.Tuple, call: ast.Call, names: set[str]) -> set[str]:
    """``loss, mse, ce = multitask_loss(...)`` where the function of the file returns
    ``a * mse + b * ce, mse, ce``: ``mse`` and ``ce`` here are terms of ``loss``."""
    fn = local_function(m, call)
    elts = [e.id if isinstance(e, ast.Name) else "" for e in tgt.elts]
    idx = next((i for i, e in enumerate(elts) if e in names), None)
    if fn is None or idx is None:
        return set()
    out = set()
    for r in m.w.returns.get(id(fn), ()):
        if isinstance(r, ast.Tuple) and len(r.elts) == len(elts):
            used = {x.id for x in walk(r.elts[idx]) if isinstance(x, ast.Name)}
            out.update(elts[j] for j, e in enumerate(r.elts)
                       if j != idx and elts[j] and isinstance(e, ast.Name) and e.id in used)
    return out


def _backwarded(call: ast.Call) -> str:
    """The name of the tensor a backward call backpropagates, or ''."""
    e = _backwarded_expr(call)
    return text(e) if e is not None else ""


def _backwarded_expr(call: ast.Call):
    """The name (or ``outputs.loss``) a backward call backpropagates, or None."""
    f = call.func
    if not isinstance(f, ast.Attribute):
        return None
    a0 = call.args[0] if call.args and (isinstance(call.args[0], ast.Name) or output_loss(call.args[0])) else None
    if f.attr == "backward":
        r = f.value
        if isinstance(r, ast.Call) and isinstance(r.func, ast.Attribute) and r.func.attr == "scale" and r.args:
            r = r.args[0]  # scaler.scale(loss).backward()
        if a0 is not None and (isinstance(r, ast.Name) and r.id in ("accelerator", "torch", "autograd", "self")
                               or isinstance(r, ast.Attribute) and r.attr in ("accelerator", "autograd")
                               or "loss" in text(a0).lower() and "loss" not in text(r).lower()):
            return a0  # accelerator.backward(loss), torch.autograd.backward(loss), model_engine.backward(loss)
        if isinstance(r, ast.Name) or output_loss(r):
            return r  # loss, outputs.loss (a Hugging Face model's output)
        if isinstance(r, ast.Subscript) and isinstance(r.value, ast.Name) and not call.args:
            return r.value  # losses["total"].backward(): every entry of `losses` is a graph
        return a0  # engine.backward(loss)
    if f.attr == "manual_backward":
        return a0
    if f.attr == "grad" and text(f.value) in ("autograd", "torch.autograd") \
            and not any(k.arg == "create_graph" for k in call.keywords):
        return a0  # grads = autograd.grad(env_loss, params): a backward that returns the gradients
    return None


def _other_binding(m, node, v: str, bound: set | None) -> bool:
    """``v`` as read at the accumulation ``node`` reaches it only from bindings that no
    backward call of the function sees (``loss = outputs.loss`` in an evaluation loop
    reusing the name, ``loss = loss.detach()``)."""
    if not bound:
        return False
    base = _base(v)
    for n in walk(node):
        if isinstance(n, ast.Name) and n.id == base:
            d = m.defs(n)
            return bool(d) and not any(id(x) in bound for x in d)
    return False

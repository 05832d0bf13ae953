"""Code that does not train: under ``torch.no_grad()`` / ``inference_mode``, decorated with
one, or in a function named like evaluation."""

from __future__ import annotations

import ast
from typing import Any

from . import names as N
from .kinds import Module
from .walk import walk


def enclosing_no_grad(m: Module, withs: tuple) -> bool:
    for w in withs:
        for item in w.items:
            e = item.context_expr
            if isinstance(e, ast.Call):
                q = m.qualname(e.func)
                if q in N.NO_GRAD and q != "torch.enable_grad":
                    return True
    return False


def decorated_no_grad(m: Module, fn: Any) -> bool:
    for d in getattr(fn, "decorator_list", ()):
        e = d.func if isinstance(d, ast.Call) else d
        q = m.qualname(e)
        if q in N.NO_GRAD and q != "torch.enable_grad":
            return True
    return False


_EVAL_WORDS = frozenset("eval evaluate evaluation val valid validate validation test testing predict prediction "
                        "inference infer sample sampling generate".split())


def eval_context(m: Module, ctx: Any) -> bool:
    """Code that does not train: under ``torch.no_grad()`` / ``inference_mode``, in a function
    decorated with one, or in a function (or an enclosing one) named like evaluation."""
    if enclosing_no_grad(m, ctx.withs):
        return True
    fn = ctx.func
    seen = 0
    while fn is not None and seen < 8:
        if decorated_no_grad(m, fn) or _name_words(fn.name) & _EVAL_WORDS:
            return True
        fn = m.w.func_ctx.get(id(fn), None)
        fn = fn.func if fn is not None else None
        seen += 1
    return False


def _name_words(name: str) -> set[str]:
    return set(name.lower().strip("_").split("_"))


def no_grad_helper(m: Module, fn: Any, withs: list) -> Any:
    """The ``with torch.no_grad():`` block (or the decorated ``def``) of a same-file function
    every ``return`` of which is inside it: what it returns never has a graph. ``withs`` is
    ``[(with node, "off" | "on")]`` of the file. None when any return runs with gradients."""
    rets = m.w.returns.get(id(fn))
    if not rets:
        return None
    if decorated_no_grad(m, fn):
        return fn
    blocks = [w for w, mode in withs if mode == "off" and _within(w, fn)]
    on = [w for w, mode in withs if mode == "on" and _within(w, fn)]
    found = None
    for r in rets:
        w = next((w for w in blocks if _within(r, w)), None)
        if w is not None and any(_within(r, o) and _within(o, w) for o in on):
            return None  # `with torch.enable_grad():` inside the no-grad block
        if w is None and isinstance(r, ast.Name):  # (the returned value)
            w = _assigned_only_in(fn, r.id, blocks, on)  # `with no_grad(): loss = ...` then `return loss`
        if w is None or found is not None and w is not found:
            return None
        found = w
    return found


def _assigned_only_in(fn: Any, name: str, blocks: list, on: list) -> Any:
    """The grad-off block holding every binding of ``name`` in ``fn`` (none of them under a
    nested ``enable_grad``), else None."""
    stores = [n for n in walk(fn) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
    if not stores:
        return None
    w = next((w for w in blocks if _within(stores[0], w)), None)
    if w is None or not all(_within(s, w) for s in stores):
        return None
    return None if any(_within(s, o) and _within(o, w) for s in stores for o in on) else w


def filled_under_no_grad(m: Module, e: Any, fn: Any, withs: list) -> Any:
    """``losses[-1]`` where the list ``losses`` starts as constants (``[0.0] * k``) and every
    item assignment to it in ``fn`` (``losses[i] += loss``) sits in a grad-off block: the
    block (the first), else None. What MAML's query losses look like when wrapped in
    ``no_grad`` by mistake."""
    if not (isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name)) or fn is None:
        return None
    name = e.value.id
    stores = [n for n in walk(fn) if isinstance(n, (ast.Assign, ast.AugAssign))
              and any(isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
                      for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    inits = [n.value for n in walk(fn) if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    if not stores or len(inits) != 1 or not _constants(inits[0]):
        return None
    off = [w for w, mode in withs if mode == "off"]
    first = None
    for s in stores:
        w = next((w for w in off if _within(s, w)), None)
        if w is None:
            return None
        first = first or w
    return first


def _within(node: Any, outer: Any) -> bool:
    """``node`` starts on a line after ``outer``'s first and no later than its last."""
    return outer.lineno < node.lineno <= (outer.end_lineno or outer.lineno)


def _constants(e: Any) -> bool:
    """A list of numbers: ``[0.0, 0.0]``, ``[0.0] * k``, ``[0 for _ in range(k)]``."""
    if isinstance(e, ast.BinOp) and type(e.op) is ast.Mult:
        return _constants(e.left) or _constants(e.right)
    if isinstance(e, ast.ListComp):
        return isinstance(e.elt, ast.Constant)
    return isinstance(e, ast.List) and bool(e.elts) and all(isinstance(x, ast.Constant) for x in e.elts)


def mode_index(m):
    """ids of functions (None: module level) that call .eval()/no_grad, and who calls whom."""
    evals: set[int] = set()
    no_grads: set[int] = set()
    callers: dict[int, list] = {}
    by_name = {}
    for name, fns in m.w.functions.items():
        for f in fns:
            by_name.setdefault(name, []).append(f)
            if decorated_no_grad(m, f):
                no_grads.add(id(f))
    for site in m.w.calls:
        call, fn = site.node, site.ctx.func
        f = call.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if name == "eval" and not call.args or name == "train" and false_arg(call):
            evals.add(id(fn))
        elif name == "set_grad_enabled" and false_arg(call):
            no_grads.add(id(fn))
        elif name in by_name:
            if enclosing_no_grad(m, site.ctx.withs):
                for g in by_name[name]:
                    no_grads.add(id(g))  # called under no_grad: its body runs without autograd
            for g in by_name[name]:
                callers.setdefault(id(g), []).append(fn)
    return evals, no_grads, callers


def false_arg(call: ast.Call) -> bool:
    args = list(call.args) + [k.value for k in call.keywords if k.arg in ("mode", "enabled")]
    return bool(args) and isinstance(args[0], ast.Constant) and args[0].value is False


def inference_in_train_mode(m):
    """(call, method, train call) for ``self.critic(...)`` run under ``torch.no_grad()`` in a
    method of a class whose other method puts that same attribute in train mode
    (``self.critic.train()`` in ``training_step``) while no line of the file ever puts it in
    eval mode: inference (a PPO rollout's value estimates, an agent acting) that runs with
    dropout on. The method must not train itself."""
    trains: dict[str, ast.Call] = {}
    evaled: set[str] = set()
    for site in m.w.calls:
        f = site.node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Attribute) and f.attr in ("train", "eval"):
            who = ast.unparse(f.value)
            if f.attr == "eval" or false_arg(site.node):
                evaled.add(who)
            elif who.startswith("self.") and not site.node.args:
                trains.setdefault(who, site.node)
    if not trains:
        return
    for site in m.w.calls:
        f, fn = site.node.func, site.ctx.func
        if not (isinstance(f, ast.Attribute) and fn is not None and site.ctx.cls is not None):
            continue
        who = ast.unparse(f)
        if who in trains and who not in evaled and enclosing_no_grad(m, site.ctx.withs) \
                and not any(c is trains[who] for c in walk(fn)):
            yield site.node, fn, trains[who], None


def partly_evaluated(m):
    """(call, function, train call, eval call) for a module run in a function that puts
    another module in eval mode first but not this one, which the file puts in train mode
    elsewhere and never in eval mode: ``model.eval()`` then ``predictor(h)`` in a link
    predictor's ``test()``, with ``predictor.train()`` in ``train()``. The first run of
    each such module in the function."""
    trains: dict[str, ast.Call] = {}
    evaled: set[str] = set()
    first_eval: dict[int, ast.Call] = {}
    for site in m.w.calls:
        f = site.node.func
        if isinstance(f, ast.Attribute) and f.attr in ("train", "eval") and _module_ref(f.value):
            who = ast.unparse(f.value)
            if f.attr == "eval" or false_arg(site.node):
                evaled.add(who)
                if site.ctx.func is not None:
                    first_eval.setdefault(id(site.ctx.func), site.node)
            elif not site.node.args and not site.node.keywords:
                trains.setdefault(who, site.node)
    done: set[tuple] = set()
    for site in m.w.calls:
        fn, f = site.ctx.func, site.node.func
        ev = first_eval.get(id(fn)) if fn is not None else None
        who = ast.unparse(f) if ev is not None and _module_ref(f) else ""
        if who in trains and who not in evaled and site.node.lineno > ev.lineno and (id(fn), who) not in done \
                and not any(c is trains[who] for c in walk(fn)):
            done.add((id(fn), who))
            yield site.node, fn, trains[who], ev


def trained_never_evaluated(m) -> bool:
    """Some module of the file is put in train mode (``phi.train()``, ``self.model.train()``) and
    no line puts it in eval mode: its author knows the mode matters (the model is built elsewhere,
    its dropout or batch norm out of sight) and forgot the other half. A trainer object's
    ``trainer.train()`` (Hugging Face, a solver class) and a class's own ``self.train()`` are not
    modules being switched."""
    trains, evaled = _switched(m)
    return bool(trains - evaled)


def switched_modules(m) -> set[str]:
    """The texts the file calls ``.train()`` or ``.eval()`` on (``phi``, ``self.encoder``):
    modules, whatever their names (``phi(x)`` runs a model)."""
    trains, evaled = _switched(m)
    return trains | evaled


def _switched(m) -> tuple[set[str], set[str]]:
    memo = m.memo.get("grad_mode.switched")
    if memo is None:
        trains, evaled = set(), set()
        for site in m.w.calls:
            f = site.node.func
            if isinstance(f, ast.Attribute) and f.attr in ("train", "eval") and _module_ref(f.value):
                who = ast.unparse(f.value)
                if who == "self" or not may_be_module(f.value):
                    continue
                if f.attr == "eval" and not site.node.args or false_arg(site.node):
                    evaled.add(who)
                elif f.attr == "train" and not site.node.args and not site.node.keywords:
                    trains.add(who)
        memo = m.memo["grad_mode.switched"] = (trains, evaled)
    return memo


def may_be_module(e) -> bool:
    """False for what ``.train()`` on does not switch a module's mode: ``trainer.train()``
    (Hugging Face), ``self.solver.train()``, an agent's or a pipeline's ``train()``."""
    who = (ast.unparse(e) if e is not None else "").lower()
    return not any(w in who for w in _NOT_MODULES)


_NOT_MODULES = ("trainer", "learner", "solver", "runner", "agent", "engine", "experiment", "pipeline")


def _module_ref(e) -> bool:
    """``predictor`` or ``self.predictor``: a name a module is kept under."""
    return isinstance(e, ast.Name) or isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) \
        and e.value.id == "self"


def call_no_grad(m, call) -> bool:
    """The call sits in a ``with torch.no_grad():`` block."""
    site = next((s for s in m.w.calls if s.node is call), None)
    return site is not None and enclosing_no_grad(m, site.ctx.withs)


def helper_no_grad(m, run) -> bool:
    """``run_validate(loader)``: a helper of the file that runs the model under its own no_grad."""
    c = m.callee(run)
    h = c[1][1] if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "func" else None
    return h is not None and (decorated_no_grad(m, h) or any(
        s.ctx.func is h and enclosing_no_grad(m, (s.node,)) for s in m.w.withs))


def body_no_grad(m, loop) -> bool:
    """A ``with torch.no_grad():`` inside the loop (from the walker's index of ``with`` blocks)."""
    return any(any(lp is loop for lp in s.ctx.loops) and enclosing_no_grad(m, (s.node,)) for s in m.w.withs)


def branch_in_train_mode(m):
    """(run, train call) for a module run under ``torch.no_grad()`` in one branch of an ``if``
    whose other branch trains (calls backward), after the function put that module in train
    mode for both branches with no ``.eval()`` in between: ``trainer.train()``, then ``if
    phase == "train": ... backward() ... else: with torch.no_grad(): loss = trainer(x)``
    (princeton-vl's stacked hourglass): the validation branch runs with dropout on and
    BatchNorm updating its running stats. The call shows the name is a module, whatever it is
    called (a ``Trainer(nn.Module)`` wrapping the model)."""
    from .training import is_backward  # training imports this module
    for site in m.w.calls:
        call, fn = site.node, site.ctx.func
        if fn is None or not _module_ref(call.func) or not enclosing_no_grad(m, site.ctx.withs):
            continue
        parents = m.memo.setdefault(("grad_mode.parents", id(fn)), {id(c): p for p in walk(fn)
                                                                     for c in ast.iter_child_nodes(p)})
        child, node, split = call, parents.get(id(call)), None
        while node is not None and node is not fn and split is None:
            if isinstance(node, ast.If) and any(child is s for s in node.orelse + node.body):
                other = node.orelse if any(child is s for s in node.body) else node.body
                if any(isinstance(c, ast.Call) and is_backward(m, c) for s in other for c in walk(s)):
                    split = node
            child, node = node, parents.get(id(node))
        if split is None:
            continue
        who = ast.unparse(call.func)
        # the last switch of that module before the `if`, in a block the `if` is nested in
        last = max((c for c in walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
                    and c.func.attr in ("train", "eval") and ast.unparse(c.func.value) == who
                    and c.lineno < split.lineno and _encloses(parents, parents.get(id(c)), split)),
                   key=lambda c: c.lineno, default=None)
        if last is not None and last.func.attr == "train" and not last.args and not last.keywords and not any(
                isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "eval"
                and ast.unparse(c.func.value) == who and last.lineno < c.lineno < call.lineno for c in walk(fn)):
            yield call, last  # (an eval() in the branch itself fixes it)


def _encloses(parents: dict, stmt: Any, node: Any) -> bool:
    """The statement ``stmt`` sits in a block that holds ``node`` (a switch that always runs before it)."""
    block = parents.get(id(stmt))
    while node is not None:
        node = parents.get(id(node))
        if node is block:
            return True
    return False

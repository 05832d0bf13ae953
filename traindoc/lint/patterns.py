"""Small recognisers shared by several rules (a call to log, a loss call, a backward, ...)."""

from __future__ import annotations

import ast
from typing import Any

from . import names as N
from .kinds import Module


_METHOD_OPS = {"log": "log", "log2": "log", "log10": "log", "log_": "log", "sqrt": "sqrt", "sqrt_": "sqrt",
               "rsqrt": "rsqrt", "rsqrt_": "rsqrt", "div": "div", "div_": "div", "true_divide": "div",
               "divide": "div"}


def op_of(m: Module, call: ast.Call) -> str | None:
    """The math op of a call, function or method spelling: "log", "sqrt", "rsqrt", "div", or None."""
    f = call.func
    if type(f) is ast.Attribute and f.attr not in _METHOD_OPS:
        return None  # torch.x.log / t.log(): the attribute is the op's name; skip the resolution
    if type(f) is not ast.Attribute and type(f) is not ast.Name:
        return None
    c = m.callee(call)
    if c[0] == "fn":
        q = c[1]
        if q in N.LOG:
            return "log"
        if q in N.SQRT:
            return "sqrt"
        if q in N.RSQRT:
            return "rsqrt"
        if q in N.DIV:
            return "div"
    elif c[0] == "meth":
        name = c[1]
        if name in ("log", "log2", "log10", "log_"):
            return "log"
        if name in ("sqrt", "sqrt_"):
            return "sqrt"
        if name in ("rsqrt", "rsqrt_"):
            return "rsqrt"
        if name in ("div", "div_", "true_divide", "divide"):
            return "div"
    return None


def divisor(m: Module, call: ast.Call) -> Any:
    """The denominator of ``torch.div(a, b)`` / ``a.div(b)``."""
    c = m.callee(call)
    args = [a for a in call.args if not isinstance(a, ast.Starred)]
    if c[0] == "meth":
        return args[0] if args else _kw(call, "other")
    return args[1] if len(args) > 1 else _kw(call, "other")


def _kw(call: ast.Call, name: str) -> Any:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def loss_call(m: Module, call: ast.Call) -> tuple[str, Any] | None:
    """("cross_entropy" | "nll" | "bce", input expression) for a loss call, function or module."""
    c = m.callee(call)
    which = None
    if c[0] == "fn":
        q = c[1]
        which = "cross_entropy" if q in N.CROSS_ENTROPY_FN else "nll" if q in N.NLL_FN else "bce" if q in N.BCE_FN else None
    elif c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "inst":
        q = c[1][1]
        which = "cross_entropy" if q in N.CROSS_ENTROPY_MOD else "nll" if q in N.NLL_MOD else "bce" if q in N.BCE_MOD else None
    if which is None:
        return None
    return which, m.first_arg(call)


def describe(m: Module, e: Any) -> str:
    """A short name for an expression in messages: `p` (line 12) or the op."""
    if isinstance(e, ast.Name):
        d = m.defs(e)
        if d and len(d) == 1 and isinstance(d[0], ast.AST) and hasattr(d[0], "lineno"):
            return f"`{e.id}` (assigned on line {d[0].lineno})"
        return f"`{e.id}`"
    if isinstance(e, ast.Attribute):
        return f"`.{e.attr}`"
    if isinstance(e, ast.Call):
        f = e.func
        nm = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "call"
        return f"`{nm}(...)`"
    return f"`{short(e)}`"


def short(e: Any, width: int = 40) -> str:
    """Source text of an expression for a message (only ever called for a finding)."""
    try:
        s = ast.unparse(e)
    except Exception:  # noqa: BLE001 - a message must never fail the lint
        return "the value"
    return s if len(s) <= width else s[: width - 3] + "..."


def is_backward(m: Module, call: ast.Call) -> bool:
    """``loss.backward()``, ``scaler.scale(loss).backward()``, ``accelerator.backward(loss)``,
    ``self.manual_backward(loss)``, ``torch.autograd.backward(...)``."""
    f = call.func
    if isinstance(f, ast.Attribute):
        if f.attr == "manual_backward":
            return True
        if f.attr == "backward":
            q = m.qualname(f)
            return q is None or q == "torch.autograd.backward"
    return False


def is_step(m: Module, call: ast.Call) -> bool:
    """An optimizer step: ``opt.step()``, ``scaler.step(opt)``, ``xm.optimizer_step(opt)``; not a scheduler's."""
    f = call.func
    if not isinstance(f, ast.Attribute):
        return False
    if f.attr == "optimizer_step":
        return True
    if f.attr != "step":
        return False
    recv = f.value
    k = m.kind(recv)
    if isinstance(k, tuple) and k[0] == "inst":
        q = k[1]
        if q.startswith("torch.optim.lr_scheduler") or "Scheduler" in q or "LR" in q.rsplit(".", 1)[-1]:
            return False
        return q.startswith("torch.optim.") or q.endswith(("GradScaler",)) or "optim" in q.lower()
    text = _text(recv).lower()
    if "sched" in text or "lr" == text.rsplit(".", 1)[-1] or "env" in text:
        return False
    if "scaler" in text:
        return True
    return any(w in text for w in ("opt", "optim", "optimizer", "optimiser"))


def is_clear(m: Module, node: ast.AST) -> bool:
    """Clears gradients: ``*.zero_grad(...)``, ``p.grad = None``, ``p.grad.zero_()``."""
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute):
            if f.attr in ("zero_grad", "clear_grad", "zero_grad_"):
                return True
            if f.attr in ("zero_", "detach_", "fill_") and _text(f.value).endswith("grad"):
                return True
    return False


def _text(e: Any) -> str:
    """Dotted text of a Name/Attribute chain (``self.opt``), '' for anything else."""
    parts = []
    while isinstance(e, ast.Attribute):
        parts.append(e.attr)
        e = e.value
    if isinstance(e, ast.Call):  # self.optimizers() / opt[0]
        return _text(e.func)
    if isinstance(e, ast.Subscript):
        return _text(e.value)
    if isinstance(e, ast.Name):
        parts.append(e.id)
    return ".".join(reversed(parts))


def text(e: Any) -> str:
    return _text(e)


def grad_none_assign(stmt_targets: list) -> bool:
    """``p.grad = None`` (or ``param.grad = None``)."""
    return any(isinstance(t, ast.Attribute) and t.attr == "grad" for t in stmt_targets)


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


# ---- shared by the catalogue rules (TD511+) --------------------------------------------

def loss_of(m: Module, call: ast.Call) -> tuple[str, Any, Any] | None:
    """(short loss name, input, target) for a call of any loss, function or module spelling
    (``F.mse_loss(a, b)``, ``nn.MSELoss()(a, b)``, ``self.criterion(a, b)``), or None."""
    f = call.func
    if type(f) not in (ast.Name, ast.Attribute, ast.Call):
        return None
    c = m.callee(call)
    short = None
    if c[0] == "fn":
        q = c[1]
        if q.startswith("torch.nn.functional."):
            short = N.LOSS_SHORT.get(q)
    elif c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "inst":
        short = N.LOSS_SHORT.get(c[1][1])
    if short is None:
        return None
    args = [a for a in call.args if not isinstance(a, ast.Starred)]
    if len(args) != len(call.args):
        return None
    inp = args[0] if args else _kw(call, "input")
    tgt = args[1] if len(args) > 1 else _kw(call, "target")
    return short, inp, tgt


def keyword(call: ast.Call, name: str) -> Any:
    return _kw(call, name)


def has_star_kwargs(call: ast.Call) -> bool:
    return any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args)


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


def call_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def is_sched_step(m: Module, call: ast.Call) -> bool:
    """``scheduler.step()`` of a learning-rate scheduler (not ReduceLROnPlateau, which takes a metric)."""
    f = call.func
    if not isinstance(f, ast.Attribute) or f.attr != "step":
        return False
    k = m.kind(f.value)
    if isinstance(k, tuple) and k[0] == "inst":
        q = k[1]
        if "Plateau" in q:
            return False
        if q.startswith("torch.optim.lr_scheduler") or "Scheduler" in q or "LR" in q.rsplit(".", 1)[-1]:
            return not call.args or "epoch" in _text(call.args[0]).lower()
        return False
    t = _text(f.value).lower()
    if "plateau" in t:
        return False
    if "sched" in t or t.rsplit(".", 1)[-1] in ("lr_scheduler", "scheduler"):
        return not call.args and not call.keywords or any("epoch" in _text(a).lower() for a in call.args)
    return False


def is_clip(m: Module, call: ast.Call) -> str:
    """"torch" for ``torch.nn.utils.clip_grad_norm_(...)`` (and value_), "other" for a helper
    that unscales itself (``accelerator.clip_grad_norm_``), "" otherwise."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if not name.startswith("clip_grad"):
        return ""
    q = m.qualname(f)
    if q in N.CLIP_GRAD:
        return "torch"
    return "other"


def step_target(call: ast.Call) -> str:
    """What an optimizer step updates, as text: ``opt`` for ``opt.step()`` and ``scaler.step(opt)``."""
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr == "step" and call.args and "scaler" in _text(f.value).lower():
        return _text(call.args[0])
    if isinstance(f, ast.Attribute) and f.attr == "optimizer_step" and call.args:
        return _text(call.args[0])
    return _text(f.value) if isinstance(f, ast.Attribute) else ""


def local_function(m: Module, call: ast.Call) -> Any:
    """The same-file function (or method) a call runs, or None."""
    c = m.callee(call)
    if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "func":
        return c[1][1]
    return None


def calls_index(m: Module) -> tuple[dict, dict]:
    """Calls grouped by enclosing loop and by enclosing function (built once per file)."""
    got = m.memo.get("patterns.calls")
    if got is None:
        by_loop: dict[int, list] = {}
        by_func: dict[int, list] = {}
        for s in m.w.calls:
            by_func.setdefault(id(s.ctx.func), []).append(s)
            for lp in s.ctx.loops:
                by_loop.setdefault(id(lp), []).append(s)
        got = m.memo["patterns.calls"] = (by_loop, by_func)
    return got


def _order(n: ast.AST) -> tuple:
    """Evaluation order: a call finishes after its arguments (``scaler.scale(loss).backward()``)."""
    return (n.end_lineno or n.lineno, n.end_col_offset or 0, n.lineno, n.col_offset)


def ordered_events(m: Module, scope: Any, classify: Any, depth: int = 2, key: str = "",
                   own_level: bool = False) -> list[tuple]:
    """``(event, node, anchor)`` for the calls of a loop (``scope`` a For/While) or a function,
    in evaluation order, where ``classify(call)`` gives a non-empty event; calls of this
    file's functions are expanded in place (``depth`` levels), their events anchored at the
    call site. ``own_level``: leave out calls inside nested loops (of the scope and of the
    functions expanded), which repeat on their own. Memoised per (key, scope)."""
    memo = m.memo.setdefault("patterns.events." + key, {}) if key else None
    mk = (id(scope), depth, own_level)
    if memo is not None and mk in memo:
        return memo[mk]
    by_loop, by_func = calls_index(m)
    is_loop = isinstance(scope, (ast.For, ast.AsyncFor, ast.While))
    sites = by_loop.get(id(scope), []) if is_loop else by_func.get(id(scope), [])
    if own_level:
        sites = [s for s in sites if (s.ctx.loops[-1] is scope if is_loop else not s.ctx.loops)]
    out: list[tuple] = []
    for site in sorted(sites, key=lambda s: _order(s.node)):
        call = site.node
        ev = classify(call)
        if ev:
            out.append((ev, call, call))
        elif depth > 0:
            fn = local_function(m, call)
            if fn is not None and fn is not scope:
                out.extend((e, n, call) for e, n, _ in ordered_events(m, fn, classify, depth - 1, key, own_level))
    if memo is not None:
        memo[mk] = out
    return out


def train_event(m: Module, call: ast.Call) -> str:
    """"B" backward, "S" optimizer step, "Z" gradient clear, "" otherwise."""
    if is_backward(m, call):
        return "B"
    if is_step(m, call):
        return "S"
    if is_clear(m, call):
        return "Z"
    return ""


def single_def(m: Module, e: Any) -> Any:
    """The one expression assigned to the name ``e`` (None when zero or several reach it)."""
    if isinstance(e, ast.Name):
        d = m.defs(e)
        if d and len(d) == 1 and isinstance(d[0], ast.expr):
            return d[0]
    return None


def model_output(m: Module, e: Any, depth: int = 2) -> bool:
    """``e`` is provably what a model returns: a call of a same-file nn.Module class instance,
    an ``nn.Sequential`` or a torch.nn layer (not a loss), directly or through one name."""
    if isinstance(e, ast.Name) and depth:
        d = single_def(m, e)
        return d is not None and model_output(m, d, depth - 1)
    if not isinstance(e, ast.Call):
        return False
    c = m.callee(e)
    if c[0] != "obj" or not isinstance(c[1], tuple):
        return False
    k = c[1]
    if k[0] in ("local", "seq"):
        return True
    return k[0] == "inst" and k[1].startswith("torch.nn.") and not k[1].endswith("Loss") and k[1][9:10].isupper()


def exclusive_branches(scope: Any, a: ast.AST, b: ast.AST) -> bool:
    """``a`` and ``b`` sit in different branches of one ``if`` (never both run in one pass)."""
    def within(stmts, n):
        return any(x is n for s in stmts for x in ast.walk(s))
    for n in ast.walk(scope):
        if isinstance(n, ast.If) and n.orelse:
            if within(n.body, a) and within(n.orelse, b) or within(n.body, b) and within(n.orelse, a):
                return True
    return False


def is_module_class(m: Module, cls: ast.ClassDef) -> bool:
    """A class of this file that derives from ``torch.nn.Module`` (or a base named like a module)."""
    for c in m._mro(cls):
        for b in c.bases:
            q = m.qualname(b) or ""
            if q.startswith(("torch.nn.", "lightning.")) or _text(b).endswith(("Module", "Model", "Net")):
                return True
    return False


def backward_target(call: ast.Call) -> Any:
    """The tensor a backward call backpropagates: ``loss`` in ``loss.backward()``,
    ``scaler.scale(loss).backward()``, ``accelerator.backward(loss)``,
    ``self.manual_backward(loss)``; None for anything else."""
    f = call.func
    if not isinstance(f, ast.Attribute):
        return None
    if f.attr == "backward":
        r = f.value
        if isinstance(r, ast.Call) and isinstance(r.func, ast.Attribute) and r.func.attr == "scale" and r.args:
            return r.args[0]
        if isinstance(r, ast.Name) or isinstance(r, (ast.BinOp, ast.Attribute, ast.Subscript)):
            return r
        return None
    if f.attr == "manual_backward" and call.args:
        return call.args[0]
    return None


def is_scaler(m: Module, e: Any) -> bool:
    """A GradScaler: by its class (``torch.amp.GradScaler``) or by a name containing "scaler"."""
    k = m.kind(e)
    if isinstance(k, tuple) and k[0] == "inst" and k[1].endswith(N.GRAD_SCALERS):
        return True
    return "scaler" in _text(e).lower()


def within(outer: ast.AST, node: ast.AST) -> bool:
    """``node`` lies inside ``outer`` (by line span: cheap, no walk)."""
    return outer.lineno <= node.lineno <= (outer.end_lineno or outer.lineno) and outer is not node


def may_be(call: ast.Call, names: Any) -> bool:
    """Cheap pre-filter before resolving a call: a method-style call ``a.b.NAME(...)`` whose
    NAME is not in ``names`` (a set, or a predicate) cannot be one of them; a plain-name
    call may be an alias (``from torch import load as tload``) and must be resolved."""
    f = call.func
    if type(f) is ast.Attribute:
        return f.attr in names if not callable(names) else names(f.attr)
    return type(f) is ast.Name


def segment(m: Module, node: Any) -> bytes:
    """The source lines of ``node`` (the whole file for None): a cheap text test before a walk."""
    lines = m.memo.get("patterns.lines")
    if lines is None:
        lines = m.memo["patterns.lines"] = m.source.splitlines()
    if node is None:
        return m.source
    return b"\n".join(lines[node.lineno - 1:(getattr(node, "end_lineno", None) or node.lineno)])

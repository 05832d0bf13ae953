"""What a call returns, as a kind (see :mod:`traindoc.lint.kinds`): the library functions
and tensor methods that make a softmax, a norm, a count, ..., and the calls of modules,
classes and functions of the same file."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from . import names as N
from .bindings import UNKNOWN
from .shift import shifted

if TYPE_CHECKING:  # kinds imports this module: the type alone, no import cycle at run time
    from .kinds import Module


def call_kind(m: Module, call: ast.Call) -> Any:
    """The kind ``call`` returns, by what it calls (:meth:`Module.callee`)."""
    c = m.callee(call)
    if c[0] == "fn":
        q = c[1]
        return fn_kind(m, q, call, lambda: m.first_arg(call))
    if c[0] == "meth":
        name, recv = c[1], c[2]
        tq = "torch.Tensor." + name
        if name in ("softmax", "log_softmax", "sigmoid", "exp", "sum", "nansum", "mean", "norm", "var", "std",
                    "count_nonzero", "square", "pow", "bincount", "relu", "max", "amax"):
            return fn_kind(m, _METHOD_AS_FN.get(name, tq), call, lambda: recv)
        if name in _SCATTER_SUMS:
            return _grouped_sum(m, call.args[2] if len(call.args) > 2 else next(
                (k.value for k in call.keywords if k.arg in ("source", "src")), None), recv)
        if name in ("stft", "abs"):  # |wav.stft(...)|: a magnitude spectrogram
            return _spectral(m, name, recv)
        if name in ("sqrt", "sqrt_"):
            return _zero_kept(m.kind(recv))  # sqrt(deg): 0 exactly where deg is
        if name in ("clamp", "clip", "clamp_min") and _min_zero(call, 0):
            return "relu"  # x.clamp(min=0): exactly 0 wherever x <= 0
        rk = m.kind(recv)
        if isinstance(rk, tuple) and rk[0] in ("local", "inst", "seq") and name in _MODULE_SELF:
            return rk  # nn.Module.to/cuda/half/train return the module itself
        if name in N.M_MASK:
            return "mask"
        if name in N.M_PRESERVE and isinstance(rk, str):
            return "mask" if rk == "mask" and name in ("float", "long", "int", "to", "half", "double", "bool") else rk
        return None
    if c[0] == "obj":
        k = c[1]
        if k[0] == "inst":
            return N.MODULE_OUT.get(k[1])
        if k[0] == "seq":
            return k[1]
        if k[0] == "class":
            return ("local", k[1])
        if k[0] == "func":
            return m.returns_kind(k[1])
        if k[0] == "local":
            fwd = m.method(k[1], "forward")
            return m.returns_kind(fwd) if fwd is not None else None
    return None


def fn_kind(m: Module, q: str, call: ast.Call, arg: Any) -> Any:
    """The kind the library function ``q`` returns; ``arg()`` gives the tensor it works on
    (a thunk: most functions never need it, and resolving it costs a kind query)."""
    if q in N.SOFTMAX:
        return "softmax"
    if q in N.LOG_SOFTMAX:
        return "log_softmax"
    if q in N.SIGMOID:
        return "sigmoid"
    if q in _RELU:
        return "relu"
    if q in ("torch.clamp", "torch.clip", "torch.clamp_min") and _min_zero(call, 1):
        return "relu"  # torch.clamp(x, min=0): a ReLU by another name
    if q in _MAX and m.kind(arg()) == "relu":
        return "relu"  # the largest of values that can all be 0 (an all-negative channel) is 0 there
    if q in N.EXP or q in N.SQRT:  # torch.sqrt(deg): 0 exactly where a count or group sum is
        return ("exp0" if shifted(m, arg()) else "exp") if q in N.EXP else _zero_kept(m.kind(arg()))
    if q in N.SUM or q in N.MEAN or q in ("torch.Tensor.sum", "torch.Tensor.nansum", "torch.Tensor.mean"):
        x = arg()
        a = m.kind(x)
        mean = q in N.MEAN or q.endswith("mean")
        if not mean and a not in ("mask", "sq"):
            # (exp(s) * mask).sum(): the masked sum of exponentials is still a softmax denominator
            if m.has_kind(x, ("exp",)):
                return "sumexp"
            if m.has_kind(x, ("exp0",)):
                return "sumexp0"
        if a == "mask" and not mean:
            return "count"
        if a == "maskedprob" and not mean:
            return "maskedsum"  # 0 for a row whose entries are all masked
        if a == "sq":
            return "sumsq"
        if a == "softmax" and _other_axis(m, call, x, method=not q.startswith(("torch.sum", "torch.mean"))):
            return "probsum"
        return None
    if q in ("torch_scatter.scatter_add", "torch_scatter.scatter_sum", "torch_geometric.utils.scatter"):
        return _grouped_sum(m, arg())  # torch_scatter.scatter_add(e, index, dim=0)
    if q in N.NORM or q == "torch.Tensor.norm":
        return "norm"
    if q in N.VAR or q == "torch.Tensor.var":
        return "variance" if q != "torch.var_mean" else None
    if q in N.STD or q == "torch.Tensor.std":
        return "std"
    if q in N.COUNT or q in ("torch.Tensor.count_nonzero", "torch.Tensor.bincount"):
        return "count"
    if q in ("torch.rand", "torch.rand_like"):
        return "uniform"
    if q in N.SQUARE or q == "torch.Tensor.square":
        return "sq"
    if q in N.POW or q == "torch.Tensor.pow":
        exps = call.args[1:] if q in N.POW else call.args[:1]
        return "sq" if exps and isinstance(exps[0], ast.Constant) and exps[0].value == 2 else None
    if q in _WRAPPERS or q in ("torch.stft", "torch.abs"):  # DataParallel(model) calls model.forward
        return m.kind(arg()) if q in _WRAPPERS else _spectral(m, q[6:], arg())
    if q == "torch.nn.Sequential":
        return _sequential_kind(m, call)
    last = q.rsplit(".", 1)[-1]
    if last[:1].isupper():
        return ("inst", _activated(q, call))  # an instance of a library class (a module, a loss, an optimizer, ...)
    return None


def _activated(q: str, call: ast.Call) -> str:
    """A library model built with an output activation (``smp.Unet(..., activation="sigmoid")``)
    is another thing than the same model returning logits (its default, ``activation=None``)."""
    if not q.startswith("segmentation_models_pytorch."):
        return q
    if any(k.arg is None for k in call.keywords) or len(call.args) > 3:
        return q + "+unknown"  # smp.Unet(**cfg), or activation passed by position: cannot tell
    a = next((k.value for k in call.keywords if k.arg == "activation"), None)
    return q if a is None or isinstance(a, ast.Constant) and a.value is None else q + "+activation"


def _spectral(m: Module, name: str, x: Any) -> Any:
    """``stft`` gives a complex spectrum ("stft"), its ``abs`` a magnitude spectrogram
    ("spectrum"), exactly 0 wherever the signal is digital silence or zero padding."""
    if name == "stft":
        return "stft"
    return "spectrum" if x is not None and m.kind(x) == "stft" else None


def _sequential_kind(m: Module, call: ast.Call) -> Any:
    """``("seq", tag)`` when the last layer's output kind is known, else the plain instance."""
    layers = [a for a in call.args if not isinstance(a, ast.Starred)]
    if len(call.args) == 1 and not layers:
        layers = _appended_last(m, call)  # nn.Sequential(*layers) built by appends
    elif not call.args and not call.keywords:
        layers = _last_call_arg(m, call, call, "add_module", 1)  # model.add_module("softmax", nn.Softmax(1))
        return _sequential_of(m, layers) if layers else ("inst", "torch.nn.Sequential")
    if layers and len(layers) == len(call.args):
        return _sequential_of(m, layers)
    return ("inst", "torch.nn.Sequential")


def _sequential_of(m: Module, layers: list) -> Any:
    last = m.kind(layers[-1])
    if isinstance(last, tuple) and last[0] == "inst" and last[1] in N.MODULE_OUT:
        return ("seq", N.MODULE_OUT[last[1]])
    return ("inst", "torch.nn.Sequential")


def _appended_last(m: Module, call: ast.Call) -> list:
    """``[X]`` for ``nn.Sequential(*layers)`` where ``layers = []`` is the list's only
    literal binding and its last ``layers.append(X)`` before the call sits at the same indentation
    as that binding (not inside the loop or branch that appends the hidden layers)."""
    star = call.args[0].value
    d = m.defs(star) if isinstance(star, ast.Name) else None
    lists = [x for x in d or () if isinstance(x, ast.List)]
    if len(lists) != 1 or any(x is not lists[0] and x is not UNKNOWN for x in d):
        return []  # (UNKNOWN: the `layers += [...]` of the loop that adds the hidden layers)
    return _last_call_arg(m, lists[0], call, "append", 0)


def _last_call_arg(m: Module, bound: ast.AST, before: ast.AST, method: str, pos: int) -> list:
    """``[X]``: argument ``pos`` of the last ``name.<method>(..., X)`` on the name bound to the
    value ``bound``, up to the line of ``before`` (or anywhere after ``bound`` when ``before``
    is ``bound``), when that call sits at the binding's indentation; else []."""
    last = None
    for site in m.w.calls:
        a = site.node
        f = a.func
        if (isinstance(f, ast.Attribute) and f.attr == method and isinstance(f.value, ast.Name)
                and len(a.args) == pos + 1 and bound.lineno < a.lineno
                and (before is bound or a.lineno < before.lineno)
                and bound in (m.defs(f.value) or ()) and (last is None or a.lineno > last.lineno)):
            last = a
    return [last.args[pos]] if last is not None and last.col_offset == _stmt_col(m, bound) else []


def _stmt_col(m: Module, value: ast.AST) -> int:
    """The indentation of the assignment whose value is ``value`` (its line's first column)."""
    line = m.source.splitlines()[value.lineno - 1]
    return len(line) - len(line.lstrip())


_RELU = frozenset({"torch.relu", "torch.nn.functional.relu", "torch.Tensor.relu"})
_MAX = frozenset({"torch.max", "torch.amax", "torch.Tensor.max", "torch.Tensor.amax"})
_SCATTER_SUMS = frozenset({"index_add", "index_add_", "scatter_add", "scatter_add_"})


def _zero_kept(k: Any) -> Any:
    """The root of a count or a group sum is 0 exactly where they are."""
    return k if k in ("count", "groupsum") else None


def _grouped_sum(m: Module, src: Any, onto: Any = None) -> Any:
    """``zeros(n).index_add_(0, index, e)``: per-group sums of ``e``, a softmax denominator
    when ``e`` is an exponential (a scatter softmax over graph edges); scattered onto a
    fresh ``torch.zeros``, a "groupsum" (0 for every group that no index hits)."""
    if src is None:
        return None
    if m.has_kind(src, ("exp",)):
        return "sumexp"
    if m.has_kind(src, ("exp0",)):
        return "sumexp0"
    if isinstance(onto, ast.Call) and m.qualname(onto.func) in ("torch.zeros", "torch.zeros_like"):
        return "groupsum"
    return None


def _int(e: Any) -> Any:
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.UnaryOp) and type(e.op) is ast.USub and isinstance(e.operand, ast.Constant) \
            and type(e.operand.value) is int:
        return -e.operand.value
    return None


def _dim(call: ast.Call, pos: int) -> Any:
    """A reduction's or a softmax's constant ``dim`` (keyword or the ``pos``-th argument)."""
    for k in call.keywords:
        if k.arg == "dim":
            return _int(k.value)
    return _int(call.args[pos]) if len(call.args) > pos else None


def _other_axis(m: Module, call: ast.Call, x: Any, method: bool) -> bool:
    """``probs.sum(0)`` where ``probs = softmax(z, dim=-1)``: summed over another axis than
    the softmax's, so it is not 1 but a sum of probabilities, 0 where each one underflowed."""
    red = _dim(call, 0 if method else 1)
    src = x
    if isinstance(src, ast.Name):
        d = m.defs(src)
        src = d[0] if d and len(d) == 1 else None
    if red is None or not isinstance(src, ast.Call):
        return False
    f = src.func
    own = isinstance(f, ast.Attribute) and f.attr == "softmax" and m.callee(src)[0] == "meth"
    sm = _dim(src, 0 if own else 1)
    if sm is None or sm == red:
        return False
    return (sm < 0) == (red < 0) or 0 in (sm, red)


_MODULE_SELF = frozenset("to cuda cpu half float double bfloat16 train eval requires_grad_ type".split())
_WRAPPERS = frozenset({
    "torch.nn.DataParallel", "torch.nn.parallel.DataParallel", "torch.nn.parallel.DistributedDataParallel",
    "torch.nn.parallel.data_parallel.DataParallel", "torch.nn.parallel.distributed.DistributedDataParallel",
    "torch.compile",
})

_METHOD_AS_FN = {
    "softmax": "torch.softmax",
    "log_softmax": "torch.log_softmax",
    "sigmoid": "torch.sigmoid",
    "exp": "torch.exp",
}


def _min_zero(call: ast.Call, at: int) -> bool:
    """The clamp's lower bound (``min=`` or the positional argument at ``at``) is the constant 0."""
    lo = next((k.value for k in call.keywords if k.arg == "min"), None)
    if lo is None and len(call.args) > at:
        lo = call.args[at]
    return isinstance(lo, ast.Constant) and not isinstance(lo.value, bool) and lo.value == 0

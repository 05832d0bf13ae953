"""TD524 one-hot-target: ``F.one_hot(y)`` passed as the target of cross_entropy / nll_loss."""

from __future__ import annotations

import ast

from .. import names as N
from ..ops import loss_of
from ..flow import single_def
from ..registry import Hit, lint_rule
from ..source import short
from .loss_shape_broadcast import _const, _ctor
from ..walk import walk


@lint_rule(
    "one-hot-target", "TD524", "warning",
    "one-hot targets (F.one_hot, torch.eye(C)[y], to_categorical, label_binarize) or float class indices passed to "
    "CrossEntropyLoss / NLLLoss, which take class indices; class indices passed to BCEWithLogitsLoss",
    needles=[("one_hot", "eye", "to_categorical", "binarize", "Binarizer", "get_dummies", "float", "randint", "max",
              "zeros"),
             ("cross_entropy", "CrossEntropyLoss", "nll_loss", "NLLLoss", "binary_cross_entropy", "BCEWithLogitsLoss",
              "BCELoss")],
    fix="pass the class indices (a LongTensor of shape (N,)) directly: F.cross_entropy(logits, y)",
    confirm="print target.shape and target.dtype at the loss: (N, C) instead of (N,)",
)
def check(m):
    """What it detects: the target of `F.cross_entropy` / `nn.CrossEntropyLoss` or
    `F.nll_loss` / `nn.NLLLoss` is a one-hot matrix: built with `F.one_hot(...)`, as rows of
    the identity (`torch.eye(C)[y]`, `np.eye(C)[y]`), with Keras' `to_categorical`,
    scikit-learn's `label_binarize` / `LabelBinarizer().fit_transform`, or
    `pd.get_dummies`, or a helper of the file that returns one (directly or through a
    name, with `.float()` / `.to(...)` /
    `torch.tensor(...)` / `torch.from_numpy(...)` in between, where `y.argmax(1)` was
    meant). Also class indices cast to float (`F.cross_entropy(out, y.float())`, where
    `y` is provably indices: `torch.randint(0, C, (N,))`, an argmax, or a name the same
    function compares with `out.argmax(1)` / `torch.max(out, 1)`), and the reverse:
    `BCEWithLogitsLoss` / `binary_cross_entropy` given class indices against the (N, C)
    output of a `nn.Linear(k, C)` head; and a target passed as it comes (`criterion(out, yb)`)
    that the same function argmaxes elsewhere (`yb.argmax(dim=1)` in the accuracy): one-hot
    rows from the dataset (not in a file that mixes or smooths labels). Severity: error for an integer one-hot, any
    one-hot given to nll_loss, float class indices and indices given to BCE (they fail
    or compute the wrong thing), warning for a float one-hot given to cross_entropy.
    Soft targets on purpose are left alone: label smoothing or mixup written as
    arithmetic on the one-hot, probabilities from a softmax (distillation), and a
    one-hot given to BCE (multi-label).

    Why it happens: these losses take class indices. An integer (N, C) one-hot is
    read as N x C class indices and fails with a shape error; nll_loss has no
    probability-target mode at all. Since PyTorch 1.10 cross_entropy accepts float
    (N, C) targets as class probabilities, so a float one-hot gives the same loss, but
    `ignore_index` does not apply to probability targets (padding tokens count in the
    loss), it is slower and uses C times the memory for targets, and the code breaks on
    older versions (cause `loss-mismatch`).

    Example:
        target = F.one_hot(y, num_classes=10).float()
        loss = F.cross_entropy(logits, target)

    How to fix:
        loss = F.cross_entropy(logits, y)                # y: class indices, dtype long
        # soft labels on purpose: keep the float targets and say so (label_smoothing= may be enough)
    """
    for site in m.w.calls:
        lc = loss_of(m, site.node)
        if lc is None or lc[2] is None:
            continue
        if lc[0] in ("binary_cross_entropy_with_logits", "binary_cross_entropy"):
            c = _classes(m, lc[1])
            if c and _indices(m, _strip_float(m, lc[2]), site, 3):
                yield Hit(site.node, f"{lc[0]} given class indices as the target of a {c}-class output: it wants "
                                     f"one 0/1 column per class, shape (N, {c}) (ValueError: target size differs); "
                                     "use F.cross_entropy(logits, y) for one label per sample, or "
                                     f"F.one_hot(y, {c}).float() for multi-label targets", severity="error")
            continue
        if lc[0] not in ("cross_entropy", "nll_loss"):
            continue
        how = _one_hot(m, lc[2], 4)
        if how:
            if lc[0] == "nll_loss" or how == "int":
                yield Hit(site.node, f"{lc[0]} given a one-hot target: it expects class indices of shape (N,); an "
                                     "integer (N, C) one-hot fails or is read as indices; pass the labels "
                                     "(y, or onehot.argmax(1))", severity="error")
            else:
                yield Hit(site.node, f"{lc[0]} given a float one-hot target: it is read as class probabilities "
                                     "(ignore_index does not apply, C times the memory); pass the class indices "
                                     "(y, or onehot.argmax(1))")
            continue
        am = _argmaxed(m, site, lc[2])
        if am is not None:
            yield Hit(site.node, f"{lc[0]} given `{lc[2].id}` as class indices, but line {am.lineno} takes "
                                 f"`{short(am)}`: the targets are one-hot rows; pass `{lc[2].id}.argmax(dim=1)` (or store "
                                 "class indices in the dataset)", related=((am, "the targets read as one-hot"),))
            continue
        inner = _strip_float(m, lc[2])
        if inner is not lc[2] and _indices(m, inner, site, 3):
            yield Hit(site.node, f"{lc[0]} given class indices cast to float (`{short(lc[2])}`): it expects a long "
                                 "tensor of class indices (a float target of shape (N,) fails); drop the .float()",
                      severity="error")


# Soft targets on purpose: a file that mixes or smooths labels argmaxes them for accuracy only.
_SOFT = (b"mixup", b"cutmix", b"smooth", b"soft_t", b"soft_l", b"distill", b"lam ", b"lam*", b"lam)")


def _argmaxed(m, site, y):
    """``yb.argmax(dim=1)`` elsewhere in the function that passes ``yb`` itself to the loss
    (the accuracy of the validation loop): the same batches' targets are one-hot rows.
    The argmax call, or None."""
    fn = site.ctx.func
    if not isinstance(y, ast.Name) or fn is None or any(w in m.source.lower() for w in _SOFT):
        return None
    d = m.defs(y)
    if d and any(isinstance(x, ast.expr) and _argmax(m, x) for x in d):
        return None  # `target = target.argmax(dim=1)` before the loss: it gets the indices (NYU-DLSP20)
    same = lambda e: isinstance(e, ast.Name) and e.id == y.id  # noqa: E731
    for n in walk(fn):
        if not isinstance(n, ast.Call):
            continue
        if isinstance(n.func, ast.Attribute) and n.func.attr == "argmax" and same(n.func.value):
            dims = [k.value for k in n.keywords if k.arg == "dim"] + n.args[:1]
        elif m.qualname(n.func) == "torch.argmax" and n.args and same(n.args[0]):
            dims = [k.value for k in n.keywords if k.arg == "dim"] + n.args[1:2]
        else:
            continue
        if dims and isinstance(dims[0], ast.Constant) and dims[0].value in (1, -1):
            return n
    return None


_FLOAT = frozenset({"float", "double", "half", "bfloat16", "to", "type"})
_INT = frozenset({"long", "int"})
_PASS = frozenset({"cuda", "cpu", "view", "reshape", "squeeze", "contiguous", "detach", "clone",
                   "permute", "transpose", "movedim", "moveaxis"})  # (N, H, W, C) -> (N, C, H, W) for segmentation
_TO_CATEGORICAL = ("to_categorical",)  # keras.utils / tensorflow.keras.utils / keras.utils.np_utils: float32
_BINARIZE = frozenset({"sklearn.preprocessing.label_binarize", "pandas.get_dummies"})
_BINARIZERS = frozenset({"sklearn.preprocessing.LabelBinarizer", "sklearn.preprocessing.MultiLabelBinarizer"})
_WRAP_KEEP = frozenset({"torch.tensor", "torch.as_tensor", "torch.from_numpy", "numpy.array", "numpy.asarray"})
_EYE = frozenset({"torch.eye", "numpy.eye", "numpy.identity"})


def _one_hot(m, e, depth: int) -> str:  # noqa: C901
    """"int" / "float" when ``e`` is a one-hot tensor (or array), else ""."""
    if depth < 0:
        return ""
    if isinstance(e, ast.Name):
        d = m.defs(e)
        if d and len(d) == 1 and isinstance(d[0], ast.expr):
            return _one_hot(m, d[0], depth - 1) or _filled_rows(m, e.id, d[0])
        return ""
    if isinstance(e, ast.Subscript):
        base = e.value  # torch.eye(C)[y] / np.eye(C)[y]: rows of the identity
        while isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and base.func.attr in ("to", "cuda"):
            base = base.func.value
        sl = e.slice.elts[0] if isinstance(e.slice, ast.Tuple) and len(e.slice.elts) == 1 else e.slice  # [y,]
        if isinstance(base, ast.Call) and m.qualname(base.func) in _EYE and not isinstance(sl, (ast.Slice, ast.Tuple)):
            return "float"
        return ""
    if isinstance(e, ast.Attribute) and e.attr == "values":
        return _one_hot(m, e.value, depth - 1)
    if not isinstance(e, ast.Call):
        return ""
    c = m.callee(e)
    if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "func" and depth:
        # a helper of the file: def to_categorical(y, n): return torch.eye(n)[y]
        rets = m.w.returns.get(id(c[1][1])) or []
        kinds = {_one_hot(m, r, depth - 1) for r in rets}
        return kinds.pop() if len(kinds) == 1 else ""
    if c[0] == "fn":
        q = c[1]
        if q in N.ONE_HOT:
            return "int"
        if q.rsplit(".", 1)[-1] in _TO_CATEGORICAL:
            return "float"
        if q in _BINARIZE:
            return "int"
        if q in _WRAP_KEEP and e.args:
            inner = _one_hot(m, e.args[0], depth - 1)
            if inner:
                dt = [k.value for k in e.keywords if k.arg == "dtype"]
                return ("float" if _float_arg(m, e) else "int") if dt else inner
            return ""
        if q in ("torch.FloatTensor", "torch.cuda.FloatTensor", "torch.DoubleTensor", "torch.LongTensor") and e.args:
            inner = _one_hot(m, e.args[0], depth - 1)
            return ("int" if q.endswith("LongTensor") else "float") if inner else ""
        return ""
    if c[0] == "meth" and depth:
        if c[1] == "fit_transform" and _binarizer(m, c[2]):
            return "int"
        if c[1] in ("scatter", "scatter_") and _zeros(m, c[2]) and _is_one(e.args[2] if len(e.args) > 2 else None):
            return "int" if _int_dtype(m, c[2]) else "float"  # torch.zeros(n, C).scatter_(1, y[:, None], 1)
        inner = _one_hot(m, c[2], depth - 1)
        if not inner:
            return ""
        if c[1] in _FLOAT:
            return "float" if c[1] != "to" or _float_arg(m, e) else inner
        if c[1] in _INT:
            return "int"
        if c[1] in _PASS or c[1] in ("to_numpy", "toarray", "numpy"):
            return inner
    return ""


_ZEROS = frozenset({"torch.zeros", "numpy.zeros", "torch.zeros_like", "numpy.zeros_like"})


def _zeros(m, e) -> bool:
    return isinstance(e, ast.Call) and m.qualname(e.func) in _ZEROS and (len(e.args) >= 2 or any(
        isinstance(a, ast.Tuple) and len(a.elts) >= 2 for a in e.args))


def _int_dtype(m, e) -> bool:
    dt = next((k.value for k in e.keywords if k.arg == "dtype"), None)
    return dt is not None and (m.qualname(dt) or "").rsplit(".", 1)[-1] in ("long", "int64", "int32", "int", "uint8")


def _is_one(e) -> bool:
    return isinstance(e, ast.Constant) and e.value in (1, 1.0) and not isinstance(e.value, bool)


def _filled_rows(m, name: str, d) -> str:
    """``t = torch.zeros(n, C)`` then ``t[torch.arange(n), y] = 1`` (or ``t[i, y[i]] = 1``,
    ``t.scatter_(1, y[:, None], 1)``): a one-hot built by hand, "float" unless the zeros are
    integers; else ""."""
    if not _zeros(m, d):
        return ""
    for n in walk(m.tree):
        if isinstance(n, ast.Assign) and _is_one(n.value) and any(
                isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
                and isinstance(t.slice, ast.Tuple) and len(t.slice.elts) == 2
                and not any(isinstance(x, ast.Slice) for x in t.slice.elts) for t in n.targets):
            return "int" if _int_dtype(m, d) else "float"
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "scatter_" \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == name and len(n.args) > 2 \
                and _is_one(n.args[2]):
            return "int" if _int_dtype(m, d) else "float"
    return ""


def _binarizer(m, e) -> bool:
    if isinstance(e, ast.Name):
        d = m.defs(e)
        e = d[0] if d and len(d) == 1 else None
    return isinstance(e, ast.Call) and m.qualname(e.func) in _BINARIZERS


def _strip_float(m, e):
    """``y`` for ``y.float()`` / ``y.to(torch.float32)`` / ``y.type(torch.FloatTensor)``, else ``e``."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and m.qualname(e.func) is None:
        a = e.func.attr
        if a in ("float", "double", "half") and not e.args or a in ("to", "type") and _float_arg(m, e):
            return e.func.value
    return e


def _argmax(m, e, depth: int = 2) -> bool:
    """``x.argmax(1)``, ``torch.argmax(x, dim=1)``, ``torch.max(x, 1)[1]``, ``x.max(1).indices``."""
    if isinstance(e, ast.Name) and depth:
        d = m.defs(e)
        return bool(d) and len(d) == 1 and isinstance(d[0], ast.expr) and _argmax(m, d[0], depth - 1)
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in ("view_as", "view", "squeeze",
                                                                                          "cpu", "cuda", "to", "long"):
        if m.qualname(e.func) is None:
            return _argmax(m, e.func.value, depth)
    if isinstance(e, ast.Call):
        f = e.func
        has_dim = len(e.args) >= (2 if m.qualname(f) == "torch.argmax" else 1) \
            or any(k.arg == "dim" for k in e.keywords)
        if m.qualname(f) == "torch.argmax" or isinstance(f, ast.Attribute) and f.attr == "argmax" \
                and m.qualname(f) is None:
            return has_dim
        return False
    if isinstance(e, ast.Subscript) and _const(e.slice) == 1 or isinstance(e, ast.Attribute) and e.attr == "indices":
        v = e.value
        if isinstance(v, ast.Call) and (m.qualname(v.func) == "torch.max" and len(v.args) >= 2 or isinstance(
                v.func, ast.Attribute) and v.func.attr == "max" and m.qualname(v.func) is None and v.args):
            return True
    return False


def _indices(m, e, site, depth: int) -> bool:  # noqa: C901
    """``e`` is provably a (N,) tensor of class indices: ``torch.randint(0, C, (N,))``, an argmax over
    the classes, or a name the same function compares with one (``(pred == y).sum()``)."""
    if depth < 0 or e is None:
        return False
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in _PASS | {"long", "to"} \
            and m.qualname(e.func) is None and not (e.func.attr in ("view", "reshape") and len(e.args) > 1):
        return _indices(m, e.func.value, site, depth)
    if _argmax(m, e):
        return True
    if isinstance(e, ast.Call) and m.qualname(e.func) == "torch.randint":
        size = e.args[-1] if len(e.args) >= 2 else next((k.value for k in e.keywords if k.arg == "size"), None)
        return isinstance(size, ast.Tuple) and len(size.elts) == 1
    if isinstance(e, ast.Name):
        d = m.defs(e)
        if d and len(d) == 1 and isinstance(d[0], ast.expr) and _indices(m, d[0], site, depth - 1):
            return True
        return _compared_with_argmax(m, e.id, site)
    return False


def _compared_with_argmax(m, name: str, site) -> bool:
    fn = site.ctx.func
    lo, hi = (fn.lineno, fn.end_lineno or fn.lineno) if fn is not None else (0, 10 ** 9)
    for cmp in m.w.compares:
        if not (lo <= cmp.lineno <= hi) or len(cmp.ops) != 1 or type(cmp.ops[0]) is not ast.Eq:
            continue
        a, b = cmp.left, cmp.comparators[0]
        for x, y in ((a, b), (b, a)):
            if _is_name(x, name) and (_argmax(m, y) or _is_name(y, "") and _unpacked_argmax(m, fn, y)):
                return True
    for s in m.w.calls:  # pred.eq(target.view_as(pred))
        call = s.node
        if not (lo <= call.lineno <= hi) or not isinstance(call.func, ast.Attribute) or call.func.attr != "eq" \
                or len(call.args) != 1:
            continue
        for x, y in ((call.args[0], call.func.value), (call.func.value, call.args[0])):
            if _is_name(x, name) and _argmax(m, y):
                return True
    return False


def _unpacked_argmax(m, fn, e) -> bool:
    """``pred`` bound by ``_, pred = torch.max(out, 1)`` (or ``out.max(1)``) in the function."""
    while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
        e = e.func.value
    if isinstance(e, ast.Attribute) and e.attr == "data":
        e = e.value
    key = ("oht-max", id(fn))
    names = m.memo.get(key)
    if names is None:
        names = m.memo[key] = set()
        for st in (fn.body if fn is not None else m.tree.body):
            for n in walk(st):
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Tuple) \
                        and len(n.targets[0].elts) == 2 and isinstance(n.targets[0].elts[1], ast.Name) \
                        and _argmax(m, ast.Subscript(value=n.value, slice=ast.Constant(1))):
                    names.add(n.targets[0].elts[1].id)
    return isinstance(e, ast.Name) and e.id in names


def _is_name(e, name: str) -> bool:
    """``e`` is the name ``name`` (any name when ``name`` is ""), through ``.view_as()``, ``.data``."""
    while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in ("view_as", "data", "cpu",
                                                                                              "squeeze", "view"):
        e = e.func.value
    if isinstance(e, ast.Attribute) and e.attr == "data":
        e = e.value
    return isinstance(e, ast.Name) and (e.id == name or not name)


def _classes(m, e) -> int:
    """C > 1 when ``e`` is provably the (N, C) output of ``nn.Linear(k, C)`` (or a model ending in one)."""
    d = single_def(m, e) if isinstance(e, ast.Name) else e
    if not isinstance(d, ast.Call):
        return 0
    c = m.callee(d)
    if c[0] != "obj" or not isinstance(c[1], tuple):
        return 0
    k = c[1]
    if k[0] in ("inst", "seq"):
        ctor = _ctor(m, d.func)
        return _out_features(m, ctor) if ctor is not None else 0
    if k[0] == "local":
        fwd = m.method(k[1], "forward")
        rets = m.w.returns.get(id(fwd)) if fwd is not None else None
        if rets and len(rets) == 1:
            return _classes(m, rets[0])
    return 0


def _out_features(m, ctor: ast.Call) -> int:
    q = m.qualname(ctor.func) or ""
    if q == "torch.nn.Linear":
        out = ctor.args[1] if len(ctor.args) > 1 else next((k.value for k in ctor.keywords if k.arg == "out_features"),
                                                           None)
        n = _const(out)
        return n if n is not None and n > 1 else 0
    if q == "torch.nn.Sequential" and ctor.args and all(isinstance(a, ast.Call) for a in ctor.args):
        return _out_features(m, ctor.args[-1])
    return 0


def _float_arg(m, call) -> bool:
    for a in [*call.args, *(k.value for k in call.keywords if k.arg == "dtype")]:
        q = m.qualname(a) or ""
        if q in ("torch.float", "torch.float32", "torch.float16", "torch.half", "torch.bfloat16", "torch.double",
                 "torch.float64"):
            return True
    return False

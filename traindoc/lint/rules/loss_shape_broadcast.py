"""TD539 loss-shape-broadcast: an elementwise loss between a (N, 1) prediction and a (N,) target."""

from __future__ import annotations

import ast

from ..batches import batch_source
from ..flow import returned_element
from ..last_layer import linear_to_one
from ..bindings import UNKNOWN, Elt, Param
from ..ops import loss_of
from ..registry import Hit, lint_rule
from ..source import short
from ..walk import walk


@lint_rule(
    "loss-shape-broadcast", "TD539", "error",
    "an elementwise loss (MSE, L1, smooth L1, Huber, hand-written (pred - y) ** 2, BCE) between a (N, 1) and a (N,) "
    "tensor: it broadcasts to (N, N)",
    needles=[("mse_loss", "MSELoss", "l1_loss", "L1Loss", "huber_loss", "HuberLoss", "binary_cross_entropy", "BCELoss",
              "BCEWithLogitsLoss", "**", "abs", "square", "pow")],
    fix="make the shapes equal: loss = F.mse_loss(pred.squeeze(-1), y) (or y.unsqueeze(-1))",
    confirm="print pred.shape and target.shape at the loss (PyTorch also warns 'Using a target size ... "
            "different to the input size')",
)
def check(m):
    """What it detects: `F.mse_loss` / `nn.MSELoss` (also `l1_loss`, `smooth_l1_loss`,
    `huber_loss`, `binary_cross_entropy`, `binary_cross_entropy_with_logits` and their
    modules) and the hand-written `((pred - y) ** 2).mean()`, `torch.mean((out - y) ** 2)`,
    `(out - y).abs().mean()`, `torch.square(out - y)`, whose two tensors have provably
    different shapes, one (N, 1) and the other (N,): an output of `nn.Linear(k, 1)` (the
    layer, an `nn.Sequential`, also of an `OrderedDict`, ending in one, maybe followed by
    an activation such as `nn.Sigmoid()`, a same-file model whose `forward` returns one,
    through `torch.sigmoid` and the like), `torch.randn(n, 1)`, or a tensor made (N, 1) by `.unsqueeze(1)`,
    `torch.unsqueeze(x, dim=1)`, `.view(-1, 1)`, `.reshape(-1, 1)`, `x[:, None]`, against
    a tensor made 1-D by `.view(-1)`, `.reshape(-1)`, `.flatten()`, `.squeeze()`, a
    column `x[:, k]`, `torch.randn(n)` / `torch.linspace` / `torch.arange`, or
    `torch.tensor([2.0, 4.0, 6.0])` against `torch.tensor([[1.0], [2.0], [3.0]])`,
    `torch.tensor(df["y"].values)` / `df.iloc[:, -1].values` (a pandas column), also
    through scikit-learn's `train_test_split(X, y)`; a loss inside a helper
    (`def reg_loss(p, t): return F.mse_loss(p, t)`) takes the shapes every call of the
    helper in the file passes, an element of the tuple a data function of the file returns
    (`x, y = make_data()`), a model a factory returns and a step function receives, and a
    batch of rows (`ys[i:i + bs]`) keeps its array's shape. Shapes the rule cannot see are never
    flagged; `out.squeeze(1)` or `y.view(-1, 1)` on one side makes them agree (a model
    whose `forward` returns `.squeeze(-1)` is (N,) and is flagged against a (N, 1) target).

    Why it happens: elementwise losses broadcast their arguments. (N, 1) against
    (N,) becomes an (N, N) matrix of every prediction against every target, and the mean
    of that is minimised by predicting the batch mean for every sample: the regression
    trains, the loss goes down a little and then plateaus at the target variance, with no
    error raised (PyTorch only warns 'Using a target size that is different to the input
    size'; a hand-written `(pred - y) ** 2` does not even warn). The binary cross-entropy
    losses refuse the mismatch with a ValueError instead. This is the most asked
    regression bug on the PyTorch forum (cause `loss-mismatch`, `loss-plateau`).

    Example:
        self.head = nn.Linear(64, 1)                     # forward returns (N, 1)
        loss = F.mse_loss(model(x), y.view(-1))          # (N, 1) vs (N,) -> (N, N)

    How to fix:
        loss = F.mse_loss(model(x).squeeze(-1), y)      # or y.view(-1, 1)
    """
    for site in m.w.calls:
        lc = loss_of(m, site.node)
        if lc is not None:
            if lc[0] not in _LOSSES:
                continue
            _, a, b = lc
            if a is None or b is None:
                continue
            pair = _mismatch(m, a, b)
            if pair is None:
                continue
            col, vec = pair
            if lc[0].startswith("binary_cross_entropy"):
                yield Hit(site.node, f"{lc[0]} between `{short(col)}` of shape (N, 1) and `{short(vec)}` of shape "
                                     "(N,): it raises ValueError (target size different to the input size); make "
                                     "the shapes equal (.squeeze(-1) or .view(-1, 1))")
            else:
                yield Hit(site.node, f"{lc[0]} between `{short(col)}` of shape (N, 1) and `{short(vec)}` of shape "
                                     "(N,): they broadcast to (N, N), every prediction against every target; make "
                                     "the shapes equal (.squeeze(-1) or .view(-1, 1))")
            continue
        diff = _elementwise_of_diff(m, site.node)
        if diff is not None:
            yield from _hand_written(m, diff)
    for site in m.w.pows:
        p = site.node
        if isinstance(p.left, ast.BinOp) and type(p.left.op) is ast.Sub and _const(p.right) == 2:
            yield from _hand_written(m, p.left)


_LOSSES = frozenset({"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
                     "binary_cross_entropy_with_logits"})
_SQUARE_ABS = frozenset({"torch.abs", "torch.square", "torch.pow", "torch.absolute"})


def _mismatch(m, a, b):
    """(the (N, 1) side, the (N,) side), or None."""
    sa, sb = _shape(m, a, 6), _shape(m, b, 6)
    if {sa, sb} == {"col", "vec"}:
        return (a, b) if sa == "col" else (b, a)
    return None


def _elementwise_of_diff(m, call: ast.Call):
    """The ``a - b`` of ``(a - b).abs()``, ``(a - b).pow(2)``, ``torch.abs(a - b)``, ``torch.square(a - b)``."""
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr in ("abs", "square", "pow", "absolute") \
            and isinstance(f.value, ast.BinOp) and type(f.value.op) is ast.Sub:
        if f.attr != "pow" or [_const(a) for a in call.args] == [2]:
            return f.value
        return None
    if call.args and isinstance(call.args[0], ast.BinOp) and type(call.args[0].op) is ast.Sub \
            and m.qualname(f) in _SQUARE_ABS:
        if m.qualname(f) != "torch.pow" or len(call.args) == 2 and _const(call.args[1]) == 2:
            return call.args[0]
    return None


def _hand_written(m, diff: ast.BinOp):
    pair = _mismatch(m, diff.left, diff.right)
    if pair is not None:
        col, vec = pair
        yield Hit(diff, f"`{short(diff)}` between `{short(col)}` of shape (N, 1) and `{short(vec)}` of shape (N,): "
                        "it broadcasts to (N, N), every prediction against every target; make the shapes equal "
                        "(.squeeze(-1) or .view(-1, 1))")


def _const(e):
    if isinstance(e, ast.Constant) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return e.value
    if isinstance(e, ast.UnaryOp) and type(e.op) is ast.USub and isinstance(e.operand, ast.Constant) \
            and isinstance(e.operand.value, int):
        return -e.operand.value
    return None


def _dim(m, call: ast.Call):  # x.squeeze(dim=-1), torch.unsqueeze(x, dim=1)
    return next((k.value for k in call.keywords if k.arg == "dim"), None)


_ACTIVATIONS = frozenset({"torch.sigmoid", "torch.tanh", "torch.relu", "torch.exp", "torch.abs", "torch.sin",
                          "torch.cos", "torch.log", "torch.sqrt", "torch.square",
                          "torch.nn.functional.sigmoid", "torch.nn.functional.relu", "torch.nn.functional.tanh",
                          "torch.nn.functional.softplus", "torch.nn.functional.leaky_relu", "torch.nn.functional.elu",
                          "torch.nn.functional.gelu", "torch.nn.functional.silu", "torch.nn.functional.dropout"})
_ACT_METHODS = frozenset({"sigmoid", "tanh", "relu", "exp", "abs", "float", "double", "to", "cuda", "cpu", "detach",
                          "contiguous", "clone", "type"})
_FACTORIES_1D = frozenset({"torch.randn", "torch.rand", "torch.zeros", "torch.ones", "torch.empty"})
_WRAPPERS = frozenset({"torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.Tensor", "torch.FloatTensor",
                       "torch.DoubleTensor", "torch.cuda.FloatTensor", "numpy.array", "numpy.asarray"})


def _count(m, e, depth: int = 2) -> bool:
    """``e`` is provably one int (a batch size): a constant, ``len(x)``, ``x.size(0)``, ``x.shape[0]``."""
    if _const(e) is not None:
        return True
    if isinstance(e, ast.Name) and depth:
        d = m.defs(e)
        return bool(d) and len(d) == 1 and isinstance(d[0], ast.expr) and _count(m, d[0], depth - 1)
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len":
        return True
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "size" and len(e.args) == 1:
        return True
    return isinstance(e, ast.Subscript) and isinstance(e.value, ast.Attribute) and e.value.attr == "shape" \
        and _const(e.slice) is not None


def _pandas_column(e) -> bool:
    """``df["y"].values`` / ``df["y"].to_numpy()`` / ``df.y.values``: a Series, 1-D."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "to_numpy" and not e.args:
        e = e.func.value
    elif isinstance(e, ast.Attribute) and e.attr == "values":
        e = e.value
    else:
        return False
    if isinstance(e, ast.Attribute):  # df.price.values
        return isinstance(e.value, ast.Name) and e.value.id != "self"
    return isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Constant) and isinstance(e.slice.value, str) \
        and isinstance(e.value, ast.Name)


def _split_source(m, name: str):
    """The array ``name`` was split from by ``X_tr, X_te, y_tr, y_te = train_test_split(X, y)``
    (the only such unpacking of ``name`` in the file), or None."""
    splits = m.memo.get("lsb-splits")
    if splits is None:
        splits = m.memo["lsb-splits"] = {}
        for n in (walk(m.tree) if b"train_test_split" in m.source else ()):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Tuple) \
                    and isinstance(n.value, ast.Call) \
                    and m.qualname(n.value.func) == "sklearn.model_selection.train_test_split":
                arrays = [a for a in n.value.args if not isinstance(a, ast.Starred)]
                elts = n.targets[0].elts
                if len(arrays) != len(n.value.args) or len(elts) != 2 * len(arrays):
                    continue
                for i, t in enumerate(elts):
                    if isinstance(t, ast.Name):
                        splits[t.id] = arrays[i // 2] if t.id not in splits else None
    return splits.get(name)


def _shape(m, e, depth: int) -> str:  # noqa: C901
    """"col" for a provable (N, 1), "vec" for a provable (N,), "" when unknown."""
    if depth < 0 or e is None:
        return ""
    if isinstance(e, ast.Name):
        return _name_shape(m, e, depth)
    if _pandas_column(e):
        return "vec"
    if isinstance(e, ast.BinOp):
        return _scaled_shape(m, e, depth)
    if isinstance(e, ast.Attribute) and e.attr == "values":
        return _shape(m, e.value, depth - 1)  # a Series' or an array's values keep its shape
    if isinstance(e, ast.Subscript):
        s = e.slice
        if isinstance(s, ast.Slice):
            return _shape(m, e.value, depth - 1)  # ys[i:i + bs]: a batch of rows keeps the shape
        if isinstance(s, ast.Tuple) and len(s.elts) == 2 and isinstance(s.elts[0], ast.Slice) \
                and s.elts[0].lower is None and s.elts[0].upper is None:
            if isinstance(s.elts[1], ast.Constant) and s.elts[1].value is None:
                return "col"  # x[:, None]
            if _const(s.elts[1]) is not None:
                return "vec"  # x[:, 0]: one column of a matrix
        return ""
    if not isinstance(e, ast.Call) or not isinstance(e.func, (ast.Attribute, ast.Name, ast.Call)):
        return ""
    f = e.func
    q = m.qualname(f)
    if q is not None:
        return _fn_shape(m, q, e, depth)
    if isinstance(f, ast.Attribute):
        args = [_const(a) for a in e.args]
        kd = _const(_dim(m, e)) if _dim(m, e) is not None else None
        name = f.attr
        if name == "unsqueeze" and (args in ([1], [-1]) or not e.args and kd in (1, -1)):
            return "col" if _shape(m, f.value, depth - 1) in ("vec", "") else ""
        if name in ("view", "reshape") and args == [-1, 1]:
            return "col"
        if name in ("view", "reshape") and args == [-1] or name in ("flatten", "ravel") and not e.args:
            return "vec"
        if name == "squeeze" and not e.args and not e.keywords:
            return "vec"
        if name == "squeeze" and (args in ([1], [-1]) or not e.args and kd in (1, -1)):
            # squeezed from a shape the rule cannot see: (N,) if it was (N, 1), as .unsqueeze(1)
            # of an unknown is (N, 1) below; if it was (N, k) the pair broadcasts anyway
            return "vec" if _shape(m, f.value, depth - 1) in ("col", "") else ""
        if name in _ACT_METHODS:
            return _shape(m, f.value, depth - 1)
    return _model_col(m, e, depth)


def _name_shape(m, e: ast.Name, depth: int) -> str:
    """The shape of what a name holds (its one assignment, a tuple element a function of the
    file returns, a split or batch, what every call passes for a parameter)."""
    d = m.defs(e)
    if d and len(d) == 1 and isinstance(d[0], ast.expr):
        return _shape(m, d[0], depth - 1)
    if d and len(d) == 1 and isinstance(d[0], Elt) and returned_element(m, d[0]):
        # x, y = make_data(): element k of every tuple the file's function returns
        shapes = {_shape(m, r, depth - 1) for r in returned_element(m, d[0])}
        return shapes.pop() if len(shapes) == 1 else ""
    if d and len(d) == 1 and (d[0] is UNKNOWN or isinstance(d[0], Elt)):
        # a train_test_split part, or a batch of a DataLoader over a TensorDataset: rows keep the shape
        src = _split_source(m, e.id)
        if src is None and d[0] is UNKNOWN:
            src = batch_source(m, e)
        return _shape(m, src, depth - 1) if src is not None else ""
    if d and len(d) == 1 and isinstance(d[0], Param) and depth > 1:
        # def regression_loss(pred, y): F.mse_loss(pred, y): what every call passes
        vals = m.arg_values(d[0]) or ()
        shapes = {_shape(m, v, depth - 2) for v in vals}
        return shapes.pop() if len(shapes) == 1 else ""
    return ""


def _fn_shape(m, q: str, e: ast.Call, depth: int) -> str:  # noqa: C901
    """The shape of a call of a library function ``q``."""
    args = [a for a in e.args if not isinstance(a, ast.Starred)]
    if len(args) != len(e.args):
        return ""
    dim = args[1] if len(args) > 1 else _dim(m, e)
    if q == "torch.unsqueeze" and args and _const(dim) in (1, -1):
        return "col" if _shape(m, args[0], depth - 1) in ("vec", "") else ""
    if q == "torch.squeeze" and args:
        if dim is None:
            return "vec"
        return "vec" if _const(dim) in (1, -1) and _shape(m, args[0], depth - 1) in ("col", "") else ""
    if q in ("torch.flatten", "torch.ravel") and len(args) == 1 and not e.keywords:
        return "vec"
    if q in _ACTIVATIONS and args:
        return _shape(m, args[0], depth - 1)
    if q in _FACTORIES_1D and not any(k.arg == "size" for k in e.keywords):
        if len(args) == 1 and _count(m, args[0]):
            return "vec"
        if len(args) == 2 and _count(m, args[0]) and _const(args[1]) == 1:
            return "col"
        return ""
    if q == "torch.randint" and len(args) == 3 and isinstance(args[2], ast.Tuple):
        dims = args[2].elts
        if len(dims) == 1 and _count(m, dims[0]):
            return "vec"
        if len(dims) == 2 and _count(m, dims[0]) and _const(dims[1]) == 1:
            return "col"
        return ""
    if q in ("torch.linspace", "torch.arange") and not any(k.arg == "out" for k in e.keywords):
        return "vec"
    if q in _WRAPPERS and len(args) == 1:
        return _literal_shape(args[0]) or _shape(m, args[0], depth - 1)
    return ""


def _literal_shape(e) -> str:
    """``[1.0, 2.0, 3.0]``: "vec"; ``[[1.0], [2.0], [3.0]]``: "col" (at least two rows)."""
    if not isinstance(e, (ast.List, ast.Tuple)) or len(e.elts) < 2:
        return ""
    if all(isinstance(x, ast.Constant) and isinstance(x.value, (int, float)) for x in e.elts):
        return "vec"
    if all(isinstance(x, (ast.List, ast.Tuple)) and len(x.elts) == 1 and isinstance(x.elts[0], ast.Constant)
           for x in e.elts):
        return "col"
    return ""


def _model_col(m, call: ast.Call, depth: int) -> str:
    """The call runs a layer (or model) whose output is (N, 1): Linear(k, 1) last."""
    c = m.callee(call)
    if c[0] != "obj" or not isinstance(c[1], tuple):
        return ""
    k = c[1]
    if k[0] in ("inst", "seq"):
        ctor = _ctor(m, call.func)
        return "col" if ctor is not None and linear_to_one(m, ctor) else ""
    if k[0] == "local" and depth > 0:
        fwd = m.method(k[1], "forward")
        rets = m.w.returns.get(id(fwd)) if fwd is not None else None
        shapes = {_shape(m, r, depth - 1) for r in rets or ()}
        if len(shapes) == 1:
            return shapes.pop()  # every return (N, 1), or every return squeezed to (N,)
    return ""


def _ctor(m, f):
    """The construction call of the module ``f`` refers to (a name or ``self.attr``), or None."""
    if isinstance(f, ast.Call):
        return f
    vals = None
    if isinstance(f, ast.Name):
        vals = m.defs(f)
    elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        base = m.kind(f.value)
        if isinstance(base, tuple) and base[0] == "local":
            for c in m._mro(base[1]):
                vals = m.w.self_attrs.get((c.name, f.attr))
                if vals:
                    break
    if vals and len(vals) == 1 and isinstance(vals[0], Param):
        vals = m.arg_values(vals[0])  # def train_batch(x, y, model, ...): what every call passes
        return _ctor(m, vals[0]) if vals and all(ast.dump(v) == ast.dump(vals[0]) for v in vals) \
            and isinstance(vals[0], ast.Name) else None
    if vals and len(vals) == 1 and isinstance(vals[0], Elt):
        vals = returned_element(m, vals[0])  # model, loss_fn, opt = get_model()
        if vals and len(vals) == 1 and isinstance(vals[0], ast.Name):
            return _ctor(m, vals[0])
    if vals and len(vals) == 1 and isinstance(vals[0], ast.Call):
        c = vals[0]  # nn.Sequential(...).to(device): the module built before it was moved
        while isinstance(c.func, ast.Attribute) and c.func.attr in ("to", "cuda", "cpu", "float", "double") \
                and isinstance(c.func.value, ast.Call):
            c = c.func.value
        return c
    return None



def _scaled_shape(m, e: ast.BinOp, depth: int) -> str:
    """``math.pi * x[:, 0]``, ``2 * y + 1``: a scalar keeps the other side's shape."""
    if type(e.op) not in (ast.Mult, ast.Div, ast.Add, ast.Sub):
        return ""
    if _scalar(e.left):  # no depth spent: an expression tree is finite, only names can loop
        return _shape(m, e.right, depth)
    if _scalar(e.right):
        return _shape(m, e.left, depth)
    # rewards + gamma * next_q.squeeze(1): a (N,) side makes the result (N,) (or, if the
    # other side were (N, 1), already (N, N): a broadcast either way)
    sides = (_shape(m, e.left, depth), _shape(m, e.right, depth))
    return "vec" if "vec" in sides and "col" not in sides else sides[0] if sides[0] == sides[1] else ""


def _scalar(e) -> bool:
    """A number: a constant, ``math.pi``, ``-1``."""
    if isinstance(e, ast.UnaryOp):
        e = e.operand
    return isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool) \
        or isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id in ("math", "np", "numpy") \
        and e.attr in ("pi", "e")

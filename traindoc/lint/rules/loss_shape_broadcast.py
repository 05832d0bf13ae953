"""TD539 loss-shape-broadcast: an elementwise loss between a (N, 1) prediction and a (N,) target."""

from __future__ import annotations

import ast

from ..ops import loss_of
from ..registry import Hit, lint_rule
from ..source import short


@lint_rule(
    "loss-shape-broadcast", "TD539", "error",
    "an elementwise loss (MSE, L1, smooth L1, Huber) between a (N, 1) and a (N,) tensor: it broadcasts to (N, N)",
    needles=[("mse_loss", "MSELoss", "l1_loss", "L1Loss", "huber_loss", "HuberLoss")],
    fix="make the shapes equal: loss = F.mse_loss(pred.squeeze(-1), y) (or y.unsqueeze(-1))",
    confirm="print pred.shape and target.shape at the loss (PyTorch also warns 'Using a target size ... "
            "different to the input size')",
)
def check(m):
    """What it detects: `F.mse_loss` / `nn.MSELoss` (also `l1_loss`, `smooth_l1_loss`,
    `huber_loss`) whose two arguments have provably different shapes, one (N, 1) and the
    other (N,): an output of `nn.Linear(k, 1)` (the layer, an `nn.Sequential` ending in one,
    a same-file model whose `forward` returns one) or a tensor made (N, 1) by
    `.unsqueeze(1)`, `.view(-1, 1)`, `.reshape(-1, 1)`, `x[:, None]`, against a tensor made
    1-D by `.view(-1)`, `.reshape(-1)`, `.flatten()`, `.squeeze()`. Shapes the rule cannot
    see are never flagged.

    Why it happens: elementwise losses broadcast their arguments. (N, 1) against
    (N,) becomes an (N, N) matrix of every prediction against every target, and the mean
    of that is minimised by predicting the batch mean for every sample: the regression
    trains, the loss goes down a little and then plateaus at the target variance, with no
    error raised (PyTorch only warns). This is the most asked regression bug on the
    PyTorch forum (cause `loss-mismatch`, `loss-plateau`).

    Example:
        self.head = nn.Linear(64, 1)                     # forward returns (N, 1)
        loss = F.mse_loss(model(x), y.view(-1))          # (N, 1) vs (N,) -> (N, N)

    How to fix:
        loss = F.mse_loss(model(x).squeeze(-1), y)      # or y.view(-1, 1)
    """
    for site in m.w.calls:
        lc = loss_of(m, site.node)
        if lc is None or lc[0] not in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
            continue
        _, a, b = lc
        if a is None or b is None:
            continue
        sa, sb = _shape(m, a, 3), _shape(m, b, 3)
        if {sa, sb} == {"col", "vec"}:
            col, vec = (a, b) if sa == "col" else (b, a)
            yield Hit(site.node, f"{lc[0]} between `{short(col)}` of shape (N, 1) and `{short(vec)}` of shape (N,): "
                                 "they broadcast to (N, N), every prediction against every target; make the shapes "
                                 "equal (.squeeze(-1) or .view(-1, 1))")


def _const(e):
    if isinstance(e, ast.Constant) and isinstance(e.value, int) and not isinstance(e.value, bool):
        return e.value
    if isinstance(e, ast.UnaryOp) and type(e.op) is ast.USub and isinstance(e.operand, ast.Constant) \
            and isinstance(e.operand.value, int):
        return -e.operand.value
    return None


def _shape(m, e, depth: int) -> str:  # noqa: C901
    """"col" for a provable (N, 1), "vec" for a provable (N,), "" when unknown."""
    if depth < 0 or e is None:
        return ""
    if isinstance(e, ast.Name):
        d = m.defs(e)
        if d and len(d) == 1 and isinstance(d[0], ast.expr):
            return _shape(m, d[0], depth - 1)
        return ""
    if isinstance(e, ast.Subscript):
        s = e.slice
        if isinstance(s, ast.Tuple) and len(s.elts) == 2 and isinstance(s.elts[0], ast.Slice) \
                and isinstance(s.elts[1], ast.Constant) and s.elts[1].value is None:
            return "col"  # x[:, None]
        return ""
    if not isinstance(e, ast.Call) or not isinstance(e.func, (ast.Attribute, ast.Name, ast.Call)):
        return ""
    f = e.func
    if isinstance(f, ast.Attribute) and m.qualname(f) is None:
        args = [_const(a) for a in e.args]
        name = f.attr
        if name == "unsqueeze" and args in ([1], [-1]):
            return "col" if _shape(m, f.value, depth - 1) in ("vec", "") else ""
        if name in ("view", "reshape") and args == [-1, 1]:
            return "col"
        if name in ("view", "reshape") and args == [-1] or name == "flatten" and not e.args:
            return "vec"
        if name == "squeeze" and not e.args and not e.keywords:
            return "vec"
        if name in ("float", "double", "to", "cuda", "cpu", "detach", "contiguous"):
            return _shape(m, f.value, depth - 1)
    return _model_col(m, e, depth)


def _model_col(m, call: ast.Call, depth: int) -> str:
    """The call runs a layer (or model) whose output is (N, 1): Linear(k, 1) last."""
    c = m.callee(call)
    if c[0] != "obj" or not isinstance(c[1], tuple):
        return ""
    k = c[1]
    if k[0] in ("inst", "seq"):
        ctor = _ctor(m, call.func)
        return "col" if ctor is not None and _linear_to_one(m, ctor) else ""
    if k[0] == "local" and depth > 0:
        fwd = m.method(k[1], "forward")
        rets = m.w.returns.get(id(fwd)) if fwd is not None else None
        if rets and all(_shape(m, r, depth - 1) == "col" for r in rets):
            return "col"
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
    if vals and len(vals) == 1 and isinstance(vals[0], ast.Call):
        return vals[0]
    return None


def _linear_to_one(m, ctor: ast.Call) -> bool:
    q = m.qualname(ctor.func) or ""
    if q in ("torch.nn.Linear", "torch.nn.LazyLinear"):
        out = ctor.args[1] if q.endswith(".Linear") and len(ctor.args) > 1 else \
            ctor.args[0] if q.endswith("LazyLinear") and ctor.args else \
            next((k.value for k in ctor.keywords if k.arg == "out_features"), None)
        return _const(out) == 1
    if q == "torch.nn.Sequential":
        layers = [a for a in ctor.args if not isinstance(a, ast.Starred)]
        return bool(layers) and len(layers) == len(ctor.args) and isinstance(layers[-1], ast.Call) \
            and _linear_to_one(m, layers[-1])
    return False

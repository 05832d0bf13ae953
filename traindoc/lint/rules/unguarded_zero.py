"""TD505 unguarded-zero: log, division or sqrt of a value that is provably able to be zero."""

from __future__ import annotations

import ast

from ..flow import single_def
from ..grad_mode import eval_context
from ..ops import divisor, op_of
from ..registry import Hit, lint_rule
from ..source import describe, text
from ..walk import walk

# kind -> why it can be zero (only kinds that are *provably* such a value: no guesses
# from variable names, which is what keeps this rule quiet on ordinary arithmetic).
WHY = {
    "prob": "a probability (1 - p is exactly 0 once p rounds to 1)",
    "softmax": "a softmax output (0 once it underflows)",
    "sigmoid": "a sigmoid output (0 or 1 once it saturates)",
    "norm": "a norm (0 for an all-zero vector, e.g. a padded row)",
    "variance": "a variance (0 for a constant input)",
    "std": "a standard deviation (0 for a constant input)",
    "count": "a count (0 when the mask selects nothing, e.g. an all-padding batch)",
    "sumsq": "a sum or mean of squares (0 for an all-zero vector)",
    "sq": "a square (0 where its base is 0)",
    "uniform": "a torch.rand sample (exactly 0 with probability 2**-24 per float32 draw: it happens in a long run)",
    "probsum": "a sum or mean of softmax probabilities over another axis (0 where every one underflows)",
    "relu": "a ReLU or clamp(min=0) output, or a ratio of one (exactly 0 for every negative input)",
    "maskedprob": "probabilities times a 0/1 mask (exactly 0 at every masked entry)",
    "maskedsum": "a sum of masked probabilities (0 for a row whose entries are all masked)",
    "groupsum": "a per-group sum scattered onto zeros (0 for every group nothing was added to: a node "
                "with no incoming edge)",
    "spectrum": "a magnitude spectrogram (|stft|: exactly 0 in digital silence and zero padding)",
    "range": "a range max - min (exactly 0 when every value is equal: a constant feature, a blank image, "
             "degenerate eigenvalues)",
}
# Which kinds each op is flagged for. log(softmax) is TD501's; sqrt is fine at a count
# (no gradient flows into a count) but its derivative is infinite at 0 for the others.
FLAG = {
    "log": ("prob", "norm", "variance", "std", "count", "sumsq", "probsum", "uniform", "relu", "maskedprob",
            "spectrum"),
    "sqrt": ("variance", "sumsq", "sq"),
    "rsqrt": ("variance", "sumsq", "sq", "norm", "std", "count", "groupsum"),
    "div": ("norm", "variance", "std", "count", "sumsq", "prob", "softmax", "sigmoid", "probsum", "relu",
            "maskedsum", "groupsum", "range"),
    # x ** -k is a division by x ** k; x ** 0.5 has sqrt's infinite derivative at 0
    "pow-": ("norm", "variance", "std", "count", "sumsq", "sq", "prob", "groupsum"),
    "pow<1": ("variance", "sumsq", "sq"),
}
EFFECT = {
    "log": "log(0) = -inf, and its gradient 1/0 turns into NaN",
    "sqrt": "sqrt is finite at 0 but its gradient 1/(2*sqrt(0)) is inf, giving NaN gradients",
    "rsqrt": "rsqrt(0) = inf",
    "div": "x/0 = inf and 0/0 = NaN",
    "pow-": "0 ** -k = inf (and NaN gradients)",
    "pow<1": "0 ** k for 0 < k < 1 is finite but its gradient is inf, giving NaN gradients",
}


@lint_rule(
    "unguarded-zero", "TD505", "warning",
    "log, division or sqrt of a probability, norm, variance or count that can be zero, without an epsilon",
    needles=[("log", "sqrt", "/", "div", "**", "pow")],
    fix="add an epsilon or clamp: torch.log(p.clamp_min(1e-12)), x / n.clamp_min(1), torch.sqrt(var + 1e-5), "
        "or the fused op (F.normalize, F.layer_norm, log_softmax, logsigmoid)",
    confirm="feed the zero case (an all-padding batch, a constant feature, a zero row) and look for inf/NaN",
)
def check(m):
    """What it detects: `log`, `sqrt`, `rsqrt`, a division, or a negative or fractional
    power (`deg ** -0.5`, `x.pow(-1)`, `var ** 0.5`, `torch.pow(n, -1)`) whose argument
    (denominator, base) is provably a value that can be exactly zero: a probability (`1 - softmax(x)`,
    `1 - sigmoid(x)`), a norm (`x.norm(dim=-1)`, `torch.linalg.vector_norm`), a variance or
    standard deviation (`x.var()`, `x.std()`), a count (`mask.sum()` of a comparison,
    `count_nonzero`, `bincount`), a sum of squares or a uniform sample (`torch.rand`,
    `torch.rand_like`: the Gumbel trick's `-log(-log(u))`), or (for log) the output of a
    model or layer that ends in `nn.ReLU` (a Poisson rate, exactly 0 for every negative
    pre-activation; also through a loss class's `__call__`), or a value clamped at 0
    (`wh.clamp(min=0)`) and products and ratios of it (the IoU of two boxes, 0 when they
    do not overlap: `-iou.log()`), or (for log) a magnitude spectrogram (`stft(...).abs()`,
    0 in digital silence), or (for a division) a range `x.max() - x.min()` of a tensor (min-max
    normalisation: 0 for a constant input; not Python's or NumPy's max, not in code that
    runs without gradients or draws or saves an image), with no epsilon or clamp. A value
    the rule cannot prove to be one of these is never flagged, so ordinary divisions stay
    quiet. log of a softmax/sigmoid output is reported by `log-of-softmax` instead. A power
    in a function that repairs infinities afterwards (`d[d == float("inf")] = 0`,
    `isinf`, `nan_to_num`, as GCN degree normalisation does) is not flagged, nor is a
    logged metric (`correct.sum().item() / mask.sum()`), through which no gradient flows.
    A sqrt or fractional power (finite at 0, only its gradient is infinite) is not flagged
    in code that runs without gradients: under `no_grad`, in an evaluation function, or
    in a helper every call of which is there. Nor is a division by the std or variance of
    a whole parameter (`emb.weight.data[rows].std()`, no `dim`): thousands of initialised
    weights, not a batch statistic.

    Why it happens: these values are zero in ordinary data, not only in bugs: a
    batch whose mask selects no token, a constant feature, a padded all-zero row, a
    probability that rounds to 1. log(0) = -inf, x/0 = inf, 0/0 = NaN, and the derivative
    of sqrt at 0 is infinite (so even a finite forward value gives NaN gradients). One such
    batch can poison every weight (cause `unstable-op`).

    Example:
        loss = (tok_loss * mask).sum() / mask.sum()      # NaN for an all-padding batch
        x = x / x.norm(dim=-1, keepdim=True)             # NaN for a zero row
        y = (x - mu) / torch.sqrt(x.var(-1, keepdim=True))

    How to fix:
        loss = (tok_loss * mask).sum() / mask.sum().clamp_min(1)
        x = F.normalize(x, dim=-1)                       # eps inside
        y = (x - mu) * torch.rsqrt(x.var(-1, keepdim=True) + 1e-5)   # or F.layer_norm
    """
    for site in m.w.calls:
        call = site.node
        op = op_of(m, call)
        if op is None:
            continue
        arg = divisor(m, call) if op == "div" else m.subject(call)
        hit = _hit(m, op, arg, call, site.ctx)
        if hit is not None:
            yield hit
    for site in m.w.divs + m.w.aug_divs:
        node = site.node
        hit = _hit(m, "div", node.right if type(node) is ast.BinOp else node.value, node, site.ctx)
        if hit is not None:
            yield hit
    for site in m.w.pows:
        op = _pow_op(site.node.right)
        if op:
            hit = _hit(m, op, site.node.left, site.node, site.ctx)
            if hit is not None:
                yield hit
    yield from _pow_calls(m)


def _pow_calls(m):
    """The hits of ``x.pow(e)`` / ``torch.pow(x, e)`` with a negative or fractional ``e``."""
    for site in m.w.calls:
        call = site.node
        f = call.func
        if type(f) is not ast.Attribute or f.attr != "pow":
            continue
        c = m.callee(call)
        if c[0] == "meth" and call.args:
            base, exp = c[2], call.args[0]
        elif c[0] == "fn" and c[1] in ("torch.pow", "numpy.power") and len(call.args) == 2:
            base, exp = call.args
        else:
            continue
        op = _pow_op(exp)
        if op:
            hit = _hit(m, op, base, call, site.ctx)
            if hit is not None:
                yield hit


def _pow_op(e) -> str:
    """"pow-" for a negative constant exponent, "pow<1" for one in (0, 1), else ""."""
    v = None
    if isinstance(e, ast.Constant) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool):
        v = e.value
    elif isinstance(e, ast.UnaryOp) and type(e.op) is ast.USub and isinstance(e.operand, ast.Constant) \
            and isinstance(e.operand.value, (int, float)) and not isinstance(e.operand.value, bool):
        v = -e.operand.value
    if v is None:
        return ""
    return "pow-" if v < 0 else "pow<1" if 0 < v < 1 else ""


def _hit(m, op: str, arg, node, ctx):
    func = ctx.func
    if arg is None:
        return None
    if op == "div" and isinstance(node, ast.BinOp) and _item(node.left):
        return None  # x.item() / n: a logged metric, no gradient flows through it
    k = "range" if op == "div" and _range(m, arg) else m.kind(arg)
    if not isinstance(k, str) or k not in FLAG[op]:
        return None
    if _tested(m, arg, func):
        return None
    if op.startswith("pow") and _inf_fixed(m, func):
        return None
    if op in _GRAD_ONLY and _no_grad_only(m, ctx):
        return None  # finite forward value; the infinite gradient never flows (evaluation code)
    if k in ("std", "variance") and _whole_parameter(m, arg):
        return None
    if k == "range" and (_no_grad_only(m, ctx) or _shows_image(m, func)):
        return None  # min-max scaling for a plot, a saved image or an evaluation: no gradient, no training
    role = "denominator" if op == "div" else "base" if op.startswith("pow") else "argument"
    what = {"pow-": "a negative power", "pow<1": "a fractional power"}.get(op, op)
    return Hit(node, f"{what} of {describe(m, arg)}, {WHY[k]}, with no epsilon: {EFFECT[op]}; "
                     f"clamp the {role} or add an epsilon")


def _range(m, arg) -> bool:
    """``x.max() - x.min()`` (``torch.max(x) - torch.min(x)``, ``amax``/``amin``, or names
    bound once to those): min-max normalisation's denominator."""
    if not (isinstance(arg, ast.BinOp) and type(arg.op) is ast.Sub):
        return False
    return _extreme(m, arg.left, "max") and _extreme(m, arg.right, "min")


def _extreme(m, e, which: str, depth: int = 2) -> bool:
    if isinstance(e, ast.Subscript):  # torch.max(x, dim=0)[0]
        e = e.value
    if isinstance(e, ast.Attribute) and e.attr == "values":  # x.max(dim=0).values
        e = e.value
    if isinstance(e, ast.Call):
        f = e.func
        if not isinstance(f, ast.Attribute) or text(f.value) in ("np", "numpy", "math"):
            return False  # Python's max(xs) (ZeroDivisionError, not NaN), NumPy's (no gradient)
        return f.attr in (which, "a" + which, "nan" + which)
    if isinstance(e, ast.Name) and depth > 0:
        d = single_def(m, e)
        return d is not None and _extreme(m, d, which, depth - 1)
    return False


_IMAGE_WORDS = (b"imshow", b"plt.", b"save_image", b"imwrite", b"fromarray", b"add_image", b"make_grid")


def _shows_image(m, func) -> bool:
    """The function draws or saves what it scales (matplotlib, torchvision's save_image, cv2,
    PIL, TensorBoard images)."""
    if func is None:
        return False
    lines = m.source.splitlines()
    body = b"\n".join(lines[func.lineno - 1:func.end_lineno or func.lineno])
    return any(w in body for w in _IMAGE_WORDS)


_GRAD_ONLY = ("sqrt", "pow<1")  # finite at 0: only the gradient is infinite


def _no_grad_only(m, ctx) -> bool:
    """The code runs without gradients: in an evaluation context (``no_grad``, an
    ``evaluate``/``test`` function), or in a helper of the file every call of which is."""
    if eval_context(m, ctx):
        return True
    fn = ctx.func
    if fn is None:
        return False
    calls = m.call_sites(fn)
    if not calls:
        return False
    where = m.memo.get("unguarded-zero.ctx")
    if where is None:
        where = m.memo["unguarded-zero.ctx"] = {id(s.node): s.ctx for s in m.w.calls}
    return all(id(c) in where and eval_context(m, where[id(c)]) for c in calls)


def _whole_parameter(m, arg) -> bool:
    """``w.std()`` / ``w.var()`` over every element (no dim) of a parameter's values
    (``layer.weight``, ``emb.weight.data[rows]``): thousands of initialised weights, not a
    batch statistic that a constant input can zero."""
    if not (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and not arg.args
            and not arg.keywords and arg.func.attr in ("std", "var")):
        return False
    e = single_def(m, arg.func.value) or arg.func.value
    return any(isinstance(x, ast.Attribute) and x.attr == "weight" for x in walk(e))


def _tested(m, arg, func) -> bool:
    """The value is checked in a condition of its function (``if noise == 0: return``,
    ``if mask.any():``, ``assert n > 0``): a guard the rule trusts. A function is walked
    only when it has a finding to drop, and once."""
    names = {n.id for n in walk(arg) if type(n) is ast.Name}
    if not names:
        return False
    memo = m.memo.setdefault("unguarded-zero.tested", {})
    scope = func if func is not None else m.tree
    tested = memo.get(id(scope))
    if tested is None:
        tested = memo[id(scope)] = {
            x.id for n in walk(scope) if type(n) in _TESTS for x in _guarded(n.test) if type(x) is ast.Name
        }
    return not names.isdisjoint(tested)


def _guarded(test):
    """The nodes of a condition that can rule out a zero. ``if ema > grad_norm:`` bounds
    ``grad_norm`` from above only (0 passes it), so its side is left out; ``if grad_norm >
    max_norm``, ``if n > 0``, ``if n:`` and ``n == 0`` keep theirs."""
    todo = [test]
    while todo:
        c = todo.pop()
        yield c
        if type(c) is ast.Compare and len(c.ops) == 1:
            op, left, right = type(c.ops[0]), c.left, c.comparators[0]
            if op in (ast.Gt, ast.GtE) and not isinstance(left, ast.Constant):
                todo.append(left)
                continue
            if op in (ast.Lt, ast.LtE) and not isinstance(right, ast.Constant):
                todo.append(right)
                continue
        todo.extend(ast.iter_child_nodes(c))


_TESTS = (ast.If, ast.While, ast.IfExp, ast.Assert)


def _item(e) -> bool:
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in ("item", "tolist")
_INF = (b"isinf", b"'inf'", b'"inf"', b"math.inf", b"torch.inf", b"np.inf", b"isfinite", b"nan_to_num")


def _inf_fixed(m, func) -> bool:
    """The function repairs infinities afterwards (``d[d == float('inf')] = 0``, ``isinf``,
    ``nan_to_num``): the GCN degree normalisation idiom."""
    lines = m.source.splitlines()
    lo, hi = (func.lineno, func.end_lineno or func.lineno) if func is not None else (1, len(lines))
    text = b"\n".join(lines[lo - 1:hi])
    return any(t in text for t in _INF)

"""TD538 non-leaf-parameter: ``torch.randn(..., requires_grad=True).cuda()`` (or ``* 0.01``) is not a leaf."""

from __future__ import annotations

import ast

from ..registry import Hit, lint_rule
from ..source import keyword, short, text
from ..walk import walk

_CONVERT = frozenset("to cuda cpu float double half bfloat16 type type_as view reshape t transpose permute unsqueeze "
                     "squeeze contiguous expand repeat flatten".split())


@lint_rule(
    "non-leaf-parameter", "TD538", "error",
    "a tensor created with requires_grad=True and then moved, cast or scaled: the result is not a leaf and gets no .grad",
    needles=[("requires_grad", "Parameter("),],
    fix="create it where it lives and set requires_grad last: w = (torch.randn(n, m, device=dev) * 0.01).requires_grad_() "
        "or nn.Parameter(torch.randn(n, m) * 0.01)",
    confirm="after loss.backward(), print(w.grad, w.is_leaf): None False (the optimizer raises "
            "\"can't optimize a non-leaf Tensor\")",
)
def check(m):
    """What it detects: a call with `requires_grad=True` (a tensor factory such as
    `torch.randn`, `torch.zeros`, `torch.tensor`) whose result is immediately moved or
    cast (`.cuda()`, `.to(device)`, `.float()`, `.view(...)`) or used in arithmetic
    (`torch.randn(3, 4, requires_grad=True) * 0.01`), also of an `nn.Parameter(...)`
    (`self.gate = nn.Parameter(torch.ones(d)).cuda()`: a plain tensor the module does not
    register, so the optimizer never sees it); and a name bound to such a leaf and
    then re-bound to its own moved or cast copy (`x = torch.rand(n, requires_grad=True)`
    ... `x = x.to(device)`, also in a tuple `x, y = x.cuda(), y.cuda()`) when the file reads
    `x.grad` or gives `x` to an optimizer: the leaf is lost.

    Why it happens: the tensor with `requires_grad=True` is the leaf; the moved,
    cast or scaled copy is an intermediate result of an operation on it. `backward()`
    fills `.grad` only on leaves, so the variable the code keeps has `.grad == None`:
    a manual update `w -= lr * w.grad` fails, `torch.optim` refuses it ("can't optimize a
    non-leaf Tensor"), and if the copy is used without an optimizer the weights silently
    never change (cause `params-not-updated`).

    Example:
        w = torch.randn(784, 10, requires_grad=True).cuda()
        b = torch.zeros(10, requires_grad=True) * 0.1

    How to fix:
        w = torch.randn(784, 10, device="cuda", requires_grad=True)
        b = (torch.zeros(10) * 0.1).requires_grad_()
    """
    for n in walk(m.tree):
        t = type(n)
        if t is ast.Call and isinstance(n.func, ast.Attribute) and n.func.attr in _CONVERT and _leaf(n.func.value):
            yield Hit(n, f"`{short(n)}`: `.{n.func.attr}()` of a tensor created with requires_grad=True returns a "
                         "non-leaf copy whose .grad stays None; create it on the device / dtype with requires_grad")
        elif t is ast.Assign:
            p = _moved_parameter(n)
            if p is not None:
                yield Hit(p, f"`{short(p)}`: `.{p.func.attr}()` of an nn.Parameter returns a plain non-leaf tensor: the "
                             "module does not register it, the optimizer never sees it and its .grad stays None; "
                             "wrap last: nn.Parameter(t.to(device)), or move the whole module with model.to(device)")
            yield from _rebound(m, n)
        elif t is ast.BinOp and (_leaf(n.left) or _leaf(n.right)):
            yield Hit(n, f"`{short(n)}`: arithmetic on a tensor created with requires_grad=True gives a non-leaf "
                         "tensor whose .grad stays None; scale first, then .requires_grad_()")


def _leaf(e) -> bool:
    """A call that creates a tensor with ``requires_grad=True`` (not ``.requires_grad_()``)."""
    if not isinstance(e, ast.Call) or isinstance(e.func, ast.Attribute) and e.func.attr == "requires_grad_":
        return False
    rg = keyword(e, "requires_grad")
    return isinstance(rg, ast.Constant) and rg.value is True


def _moved_parameter(a: ast.Assign) -> ast.Call | None:
    """``self.w = nn.Parameter(t).cuda()`` (or to a name): the moved copy of a trainable
    Parameter (requires_grad not given, or True) is a plain tensor the module does not
    register. Stores into ``module._parameters[...]`` (loaders of quantized weights) are
    deliberate and not matched."""
    v = a.value
    if not (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in _CONVERT
            and isinstance(v.func.value, ast.Call) and (text(v.func.value.func) or "").endswith("Parameter")
            and all(isinstance(t, (ast.Name, ast.Attribute)) for t in a.targets)):
        return None
    rg = keyword(v.func.value, "requires_grad")
    return v if rg is None or isinstance(rg, ast.Constant) and rg.value is True else None


def _rebound(m, a: ast.Assign):
    """``x = x.to(device)`` (or ``x, y = x.cuda(), y.cuda()``) where every binding of ``x``
    reaching it creates a leaf with ``requires_grad=True`` (or ``.requires_grad_()``)."""
    tgts, vals = a.targets[0], a.value
    pairs = list(zip(tgts.elts, vals.elts)) if isinstance(tgts, ast.Tuple) and isinstance(vals, ast.Tuple) \
        and len(tgts.elts) == len(vals.elts) else [(tgts, vals)] if len(a.targets) == 1 else []
    for t, v in pairs:
        if isinstance(t, ast.Attribute) and isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) \
                and v.func.attr in _CONVERT and text(v.func.value) == text(t) and text(t):
            made = _attr_leaf(m, a, text(t))  # self.alpha = torch.tensor(..., requires_grad=True) ... .cuda()
            if made is not None:
                yield Hit(a, f"`{short(a)}`: `{text(t)}` was created with requires_grad=True (line {made.lineno}); "
                             f"its `.{v.func.attr}()` copy is not a leaf, so its .grad stays None and an optimizer "
                             "refuses it; create it on the device, or make it an nn.Parameter and move the module")
            continue
        if not (isinstance(t, ast.Name) and isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
                and v.func.attr in _CONVERT and isinstance(v.func.value, ast.Name) and v.func.value.id == t.id):
            continue
        d = m.defs(v.func.value)
        if v.func.attr == "float" and d and not any(isinstance(x, ast.Call) and keyword(x, "dtype") for x in d):
            continue  # .float() of a float32 tensor returns the tensor itself: still the leaf
        if d and all(isinstance(x, ast.Call) and (_leaf(x) or isinstance(x.func, ast.Attribute)
                                                  and x.func.attr == "requires_grad_") for x in d) \
                and _grad_wanted(m, t.id):
            yield Hit(a, f"`{short(a)}`: `{t.id}` was created with requires_grad=True; its `.{v.func.attr}()` "
                         f"copy is not a leaf, so `{t.id}.grad` stays None and an optimizer refuses it; create it "
                         "on the device (torch.rand(..., device=device, requires_grad=True))")


def _grad_wanted(m, name: str) -> bool:
    """The file reads ``name.grad`` or hands ``name`` to a torch optimizer: its own gradient
    is wanted (``torch.autograd.grad(out, x)`` works on a non-leaf and is not flagged)."""
    for n in walk(m.tree):
        if isinstance(n, ast.Attribute) and n.attr == "grad" and isinstance(n.value, ast.Name) and n.value.id == name:
            return True
        if isinstance(n, ast.Call) and (m.qualname(n.func) or "").startswith("torch.optim.") \
                and any(isinstance(x, ast.Name) and x.id == name for a in n.args for x in walk(a)):
            return True
    return False


def _attr_leaf(m, a: ast.Assign, target: str):
    """The earlier assignment, in the function of ``a``, of ``target`` (``self.alpha``) to a
    tensor created with ``requires_grad=True``; None when there is none."""
    fn = next((f for fs in m.w.functions.values() for f in fs
               if f.lineno <= a.lineno <= (f.end_lineno or f.lineno)), None)
    for n in walk(fn if fn is not None else m.tree):
        if isinstance(n, ast.Assign) and n.lineno < a.lineno and len(n.targets) == 1 \
                and text(n.targets[0]) == target and _leaf(n.value):
            return n
    return None

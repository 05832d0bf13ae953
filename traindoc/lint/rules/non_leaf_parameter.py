"""TD538 non-leaf-parameter: ``torch.randn(..., requires_grad=True).cuda()`` (or ``* 0.01``) is not a leaf."""

from __future__ import annotations

import ast

from ..registry import Hit, lint_rule
from ..source import keyword, short
from ..walk import walk

_CONVERT = frozenset("to cuda cpu float double half bfloat16 type view reshape t transpose permute".split())


@lint_rule(
    "non-leaf-parameter", "TD538", "error",
    "a tensor created with requires_grad=True and then moved, cast or scaled: the result is not a leaf and gets no .grad",
    needles=[("requires_grad=True",)],
    fix="create it where it lives and set requires_grad last: w = (torch.randn(n, m, device=dev) * 0.01).requires_grad_() "
        "or nn.Parameter(torch.randn(n, m) * 0.01)",
    confirm="after loss.backward(), print(w.grad, w.is_leaf): None False (the optimizer raises "
            "\"can't optimize a non-leaf Tensor\")",
)
def check(m):
    """What it detects: a call with `requires_grad=True` (a tensor factory such as
    `torch.randn`, `torch.zeros`, `torch.tensor`) whose result is immediately moved or
    cast (`.cuda()`, `.to(device)`, `.float()`, `.view(...)`) or used in arithmetic
    (`torch.randn(3, 4, requires_grad=True) * 0.01`).

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
        elif t is ast.BinOp and (_leaf(n.left) or _leaf(n.right)):
            yield Hit(n, f"`{short(n)}`: arithmetic on a tensor created with requires_grad=True gives a non-leaf "
                         "tensor whose .grad stays None; scale first, then .requires_grad_()")


def _leaf(e) -> bool:
    """A call that creates a tensor with ``requires_grad=True`` (not ``.requires_grad_()``)."""
    if not isinstance(e, ast.Call) or isinstance(e.func, ast.Attribute) and e.func.attr == "requires_grad_":
        return False
    rg = keyword(e, "requires_grad")
    return isinstance(rg, ast.Constant) and rg.value is True

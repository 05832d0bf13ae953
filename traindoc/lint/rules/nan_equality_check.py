"""TD529 nan-equality-check: ``x == float('nan')``, which is always False."""

from __future__ import annotations

import ast

from ..registry import Hit, lint_rule

_NAN_NAMES = frozenset({"math.nan", "numpy.nan", "numpy.NaN", "numpy.NAN", "torch.nan"})


@lint_rule(
    "nan-equality-check", "TD529", "error",
    "a comparison with NaN (`loss == float('nan')`, `x != np.nan`, `is math.nan`): always False (or always True)",
    needles=[("nan", "NaN", "NAN")],
    fix="use math.isnan(x) / torch.isnan(t).any() / np.isnan(a), or not torch.isfinite(loss) to catch inf too",
    confirm="python -c \"print(float('nan') == float('nan'))\" prints False",
)
def check(m):
    """What it detects: `==`, `!=`, `is` or `is not` with a NaN literal on either side:
    `float('nan')` (any case), `math.nan`, `np.nan`, `torch.nan`.

    Why it happens: NaN is unequal to everything, itself included, so
    `loss == float('nan')` is always False and `!=` always True; `is` compares object
    identity and is False for a NaN computed by the model. A guard written this way (stop
    the run, skip the batch, reload a checkpoint when the loss is NaN) never fires, and the
    run keeps training on NaN weights (cause `loss-nonfinite`).

    Example:
        if loss.item() == float("nan"):                  # never true
            raise RuntimeError("loss is NaN")

    How to fix:
        if not math.isfinite(loss.item()):               # or torch.isfinite(loss) for tensors
            raise RuntimeError(f"loss is {loss.item()}")
    """
    for cmp in m.w.compares:
        if not any(type(op) in (ast.Eq, ast.NotEq, ast.Is, ast.IsNot) for op in cmp.ops):
            continue
        if any(_nan(m, e) for e in (cmp.left, *cmp.comparators)):
            yield Hit(cmp, "comparison with NaN is always False (NaN != NaN; `is` compares identity): this check "
                           "never fires; use math.isnan / torch.isnan (or isfinite)")


def _nan(m, e) -> bool:
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "float" and len(e.args) == 1:
        a = e.args[0]
        return isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.strip().lower() in ("nan", "+nan", "-nan")
    if isinstance(e, (ast.Attribute, ast.Name)):
        return (m.qualname(e) or "") in _NAN_NAMES
    return False

"""The last layer of a module built in the file: ``nn.Linear(k, 1)`` at the end of an
``nn.Sequential`` (also of ``OrderedDict`` pairs or of a list built with ``append``), for
rules that need to know a model's output is one column (N, 1)."""

from __future__ import annotations

import ast

from .walk import walk


def _const(e):
    return e.value if isinstance(e, ast.Constant) and isinstance(e.value, int) and not isinstance(e.value, bool) \
        else None


def linear_to_one(m, ctor: ast.Call) -> bool:
    q = m.qualname(ctor.func) or ""
    if q in ("torch.nn.Linear", "torch.nn.LazyLinear"):
        out = ctor.args[1] if q.endswith(".Linear") and len(ctor.args) > 1 else \
            ctor.args[0] if q.endswith("LazyLinear") and ctor.args else \
            next((k.value for k in ctor.keywords if k.arg == "out_features"), None)
        return _const(out) == 1
    if q == "torch.nn.Sequential":
        layers = [a for a in ctor.args if not isinstance(a, ast.Starred)]
        if len(layers) == 1 and isinstance(layers[0], ast.Call) and layers[0].args \
                and isinstance(layers[0].args[0], ast.List) \
                and (m.qualname(layers[0].func) or "").endswith("OrderedDict"):
            # nn.Sequential(OrderedDict([("fc", nn.Linear(h, 1)), ...])): the modules of the pairs
            pairs = layers[0].args[0].elts
            layers = [p.elts[1] for p in pairs if isinstance(p, ast.Tuple) and len(p.elts) == 2]
            if len(layers) != len(pairs):
                return False
            ctor = ast.Call(func=ctor.func, args=layers, keywords=[])
        if len(ctor.args) == 1 and isinstance(ctor.args[0], ast.Starred):
            layers = built_list(m, ctor, ctor.args[0].value)  # nn.Sequential(*layers)
        elif len(layers) != len(ctor.args):
            return False
        while layers and isinstance(layers[-1], ast.Call) \
                and (m.qualname(layers[-1].func) or "") in _ELEMENTWISE_LAYERS:
            layers.pop()  # nn.Linear(k, 1), nn.Sigmoid(): still (N, 1)
        return bool(layers) and isinstance(layers[-1], ast.Call) and linear_to_one(m, layers[-1])
    return False


_ELEMENTWISE_LAYERS = frozenset("torch.nn." + n for n in (
    "Sigmoid", "Tanh", "ReLU", "LeakyReLU", "ELU", "GELU", "SiLU", "Softplus", "Identity", "Dropout", "Hardtanh",
    "ReLU6", "PReLU"))


def built_list(m, ctor: ast.Call, name) -> list:
    """The layers of ``layers`` as ``nn.Sequential(*layers)`` sees them, when the last thing
    done to the list before it is ``layers.append(X)``, ``layers += [..., X]`` or ``layers =
    [..., X]``: only the last layer matters here, so ``[X]`` (else [])."""
    if not isinstance(name, ast.Name):
        return []
    scope = m.tree
    for f in walk(m.tree):  # the innermost function around the Sequential: its own `layers`
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.lineno <= ctor.lineno <= (f.end_lineno or 0):
            scope = f if scope is m.tree or f.lineno >= scope.lineno else scope
    last = None
    for n in walk(scope):
        if getattr(n, "lineno", ctor.lineno) >= ctor.lineno:
            continue
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "append" \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == name.id and n.args:
            x = n.args[0]
        elif isinstance(n, (ast.AugAssign, ast.Assign)) and isinstance(n.value, ast.List) and n.value.elts and any(
                isinstance(t, ast.Name) and t.id == name.id for t in getattr(n, "targets", [getattr(n, "target", None)])):
            x = n.value.elts[-1]
        else:
            continue
        if last is None or (n.lineno, n.col_offset) > last[0]:
            last = ((n.lineno, n.col_offset), x)
    return [last[1]] if last is not None else []

"""Model order for per-layer plots: depth is the order in which ``named_modules`` lists
the modules (the monitor stores it in ``meta["model/NAME"]["modules"]``), so a plot
"by depth" reads from the input layers to the output.

The monitor names the first model's modules as they are (``encoder.0``) and prefixes
every further model with its class and index (``linear1.``); a root module that is
itself a leaf is named after its model (``model``).
"""

from __future__ import annotations

from typing import Any, Iterable


def _modules(meta: dict[str, Any]) -> list[tuple[str, str]]:
    """(full module name, class name) of every recorded model, in model order."""
    out: list[tuple[str, str]] = []
    first = True
    for key in sorted((k for k in meta if k.startswith("model/")), key=lambda k: (k != "model/model", k)):
        info = meta.get(key) or {}
        name = str(info.get("name") or key[len("model/"):])
        prefix = "" if first else name + "."
        first = False
        for row in info.get("modules") or []:
            mod = str(row[0]) if row else ""
            cls = str(row[1]) if row and len(row) > 1 else ""
            out.append((prefix + mod if mod else name, cls))
    return out


def module_order(meta: dict[str, Any]) -> list[str]:
    """Full module names of every recorded model, in model order."""
    return [m for m, _ in _modules(meta)]


def module_classes(meta: dict[str, Any]) -> dict[str, str]:
    """Full module name -> its class name, for labels like ``encoder.0 · Linear``."""
    out: dict[str, str] = {}
    for m, cls in _modules(meta):
        if cls:
            out.setdefault(m, cls)
    return out


def _index(order: list[str]) -> dict[str, int]:
    idx: dict[str, int] = {}
    for i, m in enumerate(order):
        idx.setdefault(m, i)
    return idx


def sort_modules(names: Iterable[str], order: list[str]) -> list[str]:
    """``names`` (module names) in model order; unknown ones last, alphabetically."""
    idx = _index(order)
    big = len(order)
    return sorted(set(names), key=lambda n: (idx.get(n, big), n))


def sort_params(names: Iterable[str], order: list[str]) -> list[str]:
    """Parameter names (``module.weight``) in model order of their module, the weight
    before the bias; names without a known module go last, alphabetically."""
    idx = _index(order)
    big = len(order)

    def key(p: str) -> tuple:
        mod, _, leaf = p.rpartition(".")
        return (idx.get(mod, idx.get(p, big)), 0 if leaf == "weight" else 1, p)

    return sorted(set(names), key=key)

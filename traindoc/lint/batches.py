"""What a loop's batch element is a slice of: ``for xb, yb in DataLoader(TensorDataset(X, y))``.

Loop targets are bound to nothing the kinds can read (a batch is whatever the loader
yields). For the one loader whose items the file spells out, a ``TensorDataset`` of named
tensors, element ``i`` of each batch is rows of the dataset's ``i``-th tensor: same
trailing shape, so a rule that reasons about shapes (a (N,) target against a (N, 1)
output) can read the batch through it.
"""

from __future__ import annotations

import ast

_LOADERS = ("torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader")
_DATASETS = ("torch.utils.data.TensorDataset", "torch.utils.data.dataset.TensorDataset")


def batch_source(m, name: ast.Name):
    """The tensor whose rows the loop variable ``name`` holds, or None."""
    for site in m.w.loops:
        loop = site.node
        if not isinstance(loop, ast.For) or not (loop.lineno < name.lineno <= (loop.end_lineno or 0)):
            continue
        path = _position(loop.target, name.id)
        if path is None:
            continue
        it = loop.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "enumerate" and it.args:
            if not path or path[0] != 1:
                return None
            it, path = it.args[0], path[1:]
        if len(path) != 1:
            return None
        ds = _dataset(m, it)
        if ds is None or len(ds) <= path[0]:
            return None
        return ds[path[0]]
    return None


def _position(target, ident: str):
    """The index path of ``ident`` in a loop target: ``(i, (x, y))`` -> y is (1, 1)."""
    if isinstance(target, ast.Name):
        return () if target.id == ident else None
    if isinstance(target, (ast.Tuple, ast.List)):
        for i, e in enumerate(target.elts):
            if isinstance(e, ast.Starred):
                return None
            p = _position(e, ident)
            if p is not None:
                return (i, *p)
    return None


def _dataset(m, it):
    """The tensors of ``DataLoader(TensorDataset(a, b), ...)`` that ``it`` iterates, or None."""
    it = _single(m, it)
    if not isinstance(it, ast.Call) or m.qualname(it.func) not in _LOADERS:
        return None
    ds = it.args[0] if it.args else next((k.value for k in it.keywords if k.arg == "dataset"), None)
    ds = _single(m, ds)
    if not isinstance(ds, ast.Call) or m.qualname(ds.func) not in _DATASETS or ds.keywords \
            or any(isinstance(a, ast.Starred) for a in ds.args):
        return None
    return ds.args


def _single(m, e):
    if isinstance(e, ast.Name):
        d = m.defs(e)
        return d[0] if d and len(d) == 1 and isinstance(d[0], ast.expr) else None
    return e

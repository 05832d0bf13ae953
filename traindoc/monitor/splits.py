"""Do the training and an evaluation dataset share rows? Checked once per (training,
evaluation) dataset pair, from how the datasets were built, not from their contents: two
views of one tensor or array whose row ranges overlap (``data[:-100]`` for training,
``data[100:]`` for validation), or two ``Subset``s of one dataset whose index lists
intersect. No row is read or hashed: the cost is a few attribute reads and, for subsets,
one ``np.intersect1d`` of the index lists.

Two wrappers of exactly the same rows (an evaluation pass over the training set) are not
reported: that is a deliberate train-set evaluation, not a split. The verdict also says
which shape the overlap has (see :func:`shared_rows`), so that the rule can tell a broken
split from a forecasting look-back or a train-subset evaluation."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

MAX_LEAVES = 16  # arrays looked at per dataset (a dataset's first-level attributes)


def _attr(obj: Any, name: str) -> Any:
    try:  # a dataset's own __getattr__ may raise anything
        return getattr(obj, name, None)
    except Exception:  # noqa: BLE001 - not this check's business
        return None


def _arrays(ds: Any) -> list[Any]:
    """The tensors and arrays a dataset holds: TensorDataset's, or its first-level
    attributes (and one level into short lists, tuples and dicts). A Subset's index list is
    not rows of data (its base dataset is compared instead)."""
    found: list[Any] = []
    tensors = _attr(ds, "tensors")
    vals: list[Any] = list(tensors) if isinstance(tensors, (list, tuple)) else []
    try:
        own = dict(vars(ds))
    except TypeError:
        own = {}
    if _attr(ds, "dataset") is not None:
        own.pop("indices", None)
    vals += list(own.values())
    for v in vals:
        if isinstance(v, (dict, list, tuple)) and len(v) > MAX_LEAVES:
            continue  # a vocabulary or a list of file names: no arrays of rows there
        items = list(v.values()) if isinstance(v, dict) else list(v) if isinstance(v, (list, tuple)) else [v]
        for x in items:
            if _rows(x) is not None and not any(x is y for y in found):
                found.append(x)
    return found[:MAX_LEAVES]


def _rows(x: Any) -> tuple[tuple, int, int, int] | None:
    """(layout key, start, row step, rows) of a non-empty strided view in its memory, or
    None. The key holds the buffer, the row shape and strides: two views that agree on it
    differ only in which rows they cover."""
    if isinstance(x, torch.Tensor):
        if x.layout != torch.strided or x.is_nested or x.device.type == "meta" or x.ndim < 1 \
                or x.numel() == 0 or x.shape[0] < 2 or x.stride(0) <= 0:
            return None
        key = ("t", x.device.type, x.untyped_storage().data_ptr(), x.dtype, tuple(x.shape[1:]), x.stride())
        return key, x.storage_offset(), x.stride(0), x.shape[0]
    if not isinstance(x, np.ndarray) or x.ndim < 1 or x.size == 0 or x.shape[0] < 2 or x.strides[0] <= 0 \
            or x.dtype == object:
        return None
    base = x
    while isinstance(base.base, np.ndarray):
        base = base.base
    start = x.__array_interface__["data"][0]
    key = ("n", base.__array_interface__["data"][0], x.dtype.str, tuple(x.shape[1:]), x.strides)
    return key, start, x.strides[0], x.shape[0]


def _view_overlap(a: Any, b: Any) -> tuple[int, int, int, str] | None:
    """(shared rows, rows of b, rows of a, shape) when a and b are row ranges of one buffer;
    shape: "inside" (b within a), "around" (b holds all of a and more), "tail" (b starts
    inside a and runs past its end: a look-back, or a boundary set wrong), "head" (b ends
    inside a)."""
    ra, rb = _rows(a), _rows(b)
    if ra is None or rb is None or ra[0] != rb[0] or ra[2] != rb[2]:
        return None
    d, step = rb[1] - ra[1], ra[2]
    if d % step:
        return None  # other columns of the same rows, or unaligned: not this check's case
    d //= step
    na, nb = ra[3], rb[3]
    shared = max(0, min(na, d + nb) - max(0, d))
    shape = "inside" if d >= 0 and d + nb <= na else "around" if d <= 0 and d + nb >= na else \
        "tail" if d > 0 else "head"
    return shared, nb, na, shape


def _subset_overlap(a: Any, b: Any) -> tuple[int, int, int, str] | None:
    base_a, base_b = _attr(a, "dataset"), _attr(b, "dataset")
    ia, ib = _attr(a, "indices"), _attr(b, "indices")
    if base_a is None or base_a is not base_b or ia is None or ib is None:
        return None
    try:
        xa, xb = np.asarray(ia, dtype=np.int64).reshape(-1), np.asarray(ib, dtype=np.int64).reshape(-1)
    except (TypeError, ValueError):
        return None
    ua, ub = np.unique(xa), np.unique(xb)
    shared = int(np.intersect1d(ua, ub, assume_unique=True).size)
    shape = "inside" if shared == ub.size else "around" if shared == ua.size else "mixed"
    return shared, int(ub.size), int(ua.size), shape


def shared_rows(train: Any, evaluation: Any) -> dict[str, Any] | None:
    """What the evaluation dataset shares with the training dataset, or None: ``shared``
    rows of ``rows`` (of ``train_rows`` training rows), ``how`` (``"subset indices"`` or
    ``"array view"``) and ``shape`` (see :func:`_view_overlap`; ``"mixed"`` for index
    lists)."""
    if train is None or evaluation is None or train is evaluation:
        return None
    sub = _subset_overlap(train, evaluation)
    if sub is not None:
        return _verdict(*sub, "subset indices")
    for a in _arrays(train):
        for b in _arrays(evaluation):
            if type(a) is not type(b):
                continue
            got = _view_overlap(a, b)
            verdict = _verdict(*got, "array view") if got is not None else None
            if verdict is not None:  # (a buffer both share whole, a normaliser: look further)
                return verdict
    return None


def _verdict(shared: int, rows: int, train_rows: int, shape: str, how: str) -> dict[str, Any] | None:
    if shared <= 0 or (shared == rows and rows == train_rows):
        return None  # disjoint, or exactly the training rows (a train-set evaluation)
    return {"shared": shared, "rows": rows, "train_rows": train_rows, "how": how, "shape": shape}

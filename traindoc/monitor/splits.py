"""Do the training and an evaluation dataset share rows? Checked once per evaluation loader,
from how the datasets were built, not from their contents: two views of one tensor or
array whose row ranges overlap (``data[:-100]`` for training, ``data[100:]`` for
validation), or two ``Subset``s of one dataset whose index lists intersect. No row is read
or hashed: the cost is a few attribute reads and, for subsets, one ``np.intersect1d`` of
the index lists.

Two wrappers of exactly the same rows (an evaluation pass over the training set) are not
reported: that is a deliberate train-set evaluation, not a split."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

MAX_LEAVES = 16  # arrays looked at per dataset (a dataset's first-level attributes)


def _arrays(ds: Any) -> list[Any]:
    """The tensors and arrays a dataset holds: TensorDataset's, or its first-level
    attributes (and one level into lists, tuples and dicts)."""
    found: list[Any] = []
    vals: list[Any] = list(getattr(ds, "tensors", ()) or ())
    try:
        vals += list(vars(ds).values())
    except TypeError:
        return found
    for v in vals:
        if isinstance(v, (dict, list, tuple)) and len(v) > MAX_LEAVES:
            continue  # a vocabulary or a list of file names: no arrays of rows there
        items = list(v.values()) if isinstance(v, dict) else list(v) if isinstance(v, (list, tuple)) else [v]
        for x in items:
            if isinstance(x, (torch.Tensor, np.ndarray)) and x.ndim >= 1 and x.shape[0] > 1 and \
                    not any(x is y for y in found):
                found.append(x)
    return found[:MAX_LEAVES]


def _rows(x: Any) -> tuple[tuple, int, int, int] | None:
    """(layout key, start, row step, rows) of a view in its memory, or None. The key holds
    the buffer, the row shape and strides: two views that agree on it differ only in which
    rows they cover."""
    if isinstance(x, torch.Tensor):
        if x.is_sparse or x.stride(0) <= 0:
            return None
        key = ("t", x.device.type, x.untyped_storage().data_ptr(), x.dtype, tuple(x.shape[1:]), x.stride())
        return key, x.storage_offset(), x.stride(0), x.shape[0]
    if x.strides[0] <= 0:
        return None
    base = x
    while isinstance(base.base, np.ndarray):
        base = base.base
    start = x.__array_interface__["data"][0]
    key = ("n", base.__array_interface__["data"][0], x.dtype.str, tuple(x.shape[1:]), x.strides)
    return key, start, x.strides[0], x.shape[0]


def _view_overlap(a: Any, b: Any) -> tuple[int, int] | None:
    """(shared rows, rows of b) when a and b are row ranges of one buffer."""
    ra, rb = _rows(a), _rows(b)
    if ra is None or rb is None or ra[0] != rb[0] or ra[2] != rb[2]:
        return None
    d, step = rb[1] - ra[1], ra[2]
    if d % step:
        return None  # other columns of the same rows, or unaligned: not this check's case
    d //= step
    shared = max(0, min(ra[3], d + rb[3]) - max(0, d))
    return shared, rb[3]


def _subset_overlap(a: Any, b: Any) -> tuple[int, int] | None:
    base_a, base_b = getattr(a, "dataset", None), getattr(b, "dataset", None)
    ia, ib = getattr(a, "indices", None), getattr(b, "indices", None)
    if base_a is None or base_a is not base_b or ia is None or ib is None:
        return None
    try:
        xa, xb = np.asarray(ia, dtype=np.int64).reshape(-1), np.asarray(ib, dtype=np.int64).reshape(-1)
    except (TypeError, ValueError):
        return None
    return int(np.intersect1d(xa, xb).size), int(np.unique(xb).size)


def shared_rows(train: Any, evaluation: Any) -> dict[str, Any] | None:
    """What the evaluation dataset shares with the training dataset, or None: ``shared``
    rows of ``rows``, and ``how`` (``"subset indices"`` or ``"array view"``)."""
    if train is None or evaluation is None or train is evaluation:
        return None
    sub = _subset_overlap(train, evaluation)
    if sub is not None:
        return _verdict(*sub, "subset indices", _len(train))
    for a in _arrays(train):
        for b in _arrays(evaluation):
            if type(a) is not type(b):
                continue
            got = _view_overlap(a, b)
            if got is not None:
                return _verdict(*got, "array view", a.shape[0])
    return None


def _len(ds: Any) -> int | None:
    try:
        return len(ds)
    except TypeError:
        return None


def _verdict(shared: int, rows: int, how: str, train_rows: int | None) -> dict[str, Any] | None:
    if shared <= 0 or (shared == rows and rows == train_rows):
        return None  # disjoint, or exactly the training rows (a train-set evaluation)
    return {"shared": shared, "rows": rows, "train_rows": train_rows, "how": how}

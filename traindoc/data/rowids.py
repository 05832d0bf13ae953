"""Row ids inside a profile: *packed* ``(unit << 40) | row_in_unit``, ordered like the
global row index, so "the first K rows" of two profiles merge with a sort (see
:mod:`.profile`)."""

from __future__ import annotations

import numpy as np

K = 32  # extremes and example rows kept per column
ROW_BITS = 40


def first_k(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The K smallest distinct row ids of two sets (the first K rows, merged in any order)."""
    return np.unique(np.concatenate([a, b]).astype(np.uint64))[:K]


def pack(unit: int, rows: np.ndarray) -> np.ndarray:
    return (np.uint64(unit) << np.uint64(ROW_BITS)) | rows.astype(np.uint64)

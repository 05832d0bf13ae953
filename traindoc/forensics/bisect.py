"""Which samples of a batch make it fail: adaptive group testing, and batch slicing.

``find_bad_samples(fails, n)`` needs only a predicate ``fails(indices) -> bool`` (True when
a forward on those samples gives a non-finite result). Binary splitting: halve a failing
group and test the left half only; when it passes, the right half must be the one that
fails, so each halving costs one call. After each bad sample is found, one call on the
rest of the batch (less the halves that passed) says whether another remains. One bad sample among n costs
ceil(log2 n) + 2 calls (12 for 1024), plus one to ``verify`` it fails alone; d bad samples
cost at most d * (ceil(log2 n) + 1) + 2, against n for a one-at-a-time scan.

The search assumes what group testing assumes: a group fails if and only if it holds a
bad sample. When a failure needs two samples together (a batch statistic, BatchNorm in
train mode) that is false; ``verify`` runs the found samples alone and ``verified`` says
whether they fail by themselves.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch


@dataclass
class BisectResult:
    bad: list[int]  # positions in 0..n-1, ascending
    calls: int  # how many times ``fails`` was called
    verified: bool | None = None  # the bad samples alone fail (None: not checked / none found)
    stopped_early: bool = False  # max_bad reached: other bad samples may remain

    def to_dict(self) -> dict[str, Any]:
        return {"bad": self.bad, "calls": self.calls, "verified": self.verified,
                "stopped_early": self.stopped_early}


def max_calls(n: int, bad: int = 1, verify: bool = True) -> int:
    """Upper bound on the calls of :func:`find_bad_samples` with ``bad`` bad samples."""
    if n <= 0:
        return 0
    if bad == 0:
        return 1
    depth = math.ceil(math.log2(n)) if n > 1 else 0
    return 1 + bad * (depth + 1) + (1 if verify else 0)


def find_bad_samples(
    fails: Callable[[list[int]], bool], n: int, max_bad: int | None = None, *, verify: bool = True
) -> BisectResult:
    """Find the positions in ``range(n)`` that make ``fails`` true.

    ``fails`` receives a sorted list of positions and returns True when that sub-batch
    fails. The whole batch is tested first: when it passes the answer is empty (1 call).
    ``max_bad`` stops once that many are found (``stopped_early`` when some of the batch
    was left untested). ``verify`` spends one more call on the found samples alone,
    unless exactly that group was tested already.
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, not {n}")
    if max_bad is not None and max_bad < 1:
        raise ValueError(f"max_bad must be >= 1, not {max_bad}")
    calls = 0
    tested: set[tuple[int, ...]] = set()

    def test(group: list[int]) -> bool:
        nonlocal calls
        calls += 1
        tested.add(tuple(group))
        return bool(fails(group))

    rest = list(range(n))
    if n == 0 or not test(rest):
        return BisectResult([], calls)
    bad: list[int] = []
    clean: set[int] = set()  # members of a group that passed
    stopped = False
    while True:
        group = rest  # known to fail
        while len(group) > 1:
            left = group[: len(group) // 2]
            if test(left):
                group = left
            else:
                clean.update(left)
                group = group[len(group) // 2 :]
        bad.append(group[0])
        rest = [i for i in rest if i != group[0] and i not in clean]
        if max_bad is not None and len(bad) >= max_bad:
            stopped = bool(rest)
            break
        if not rest or not test(rest):
            break
    bad.sort()
    verified = None
    if verify:
        verified = True if tuple(bad) in tested else test(bad)
    return BisectResult(bad, calls, verified, stopped)


# --- batch slicing --------------------------------------------------------------------


def batch_size_of(batch: Any) -> int | None:
    """dim 0 of the first tensor/array found in ``batch`` (depth first), or None."""
    if isinstance(batch, (torch.Tensor, np.ndarray)):
        return int(batch.shape[0]) if batch.ndim > 0 else None
    if isinstance(batch, Mapping):
        items: Any = batch.values()
    elif isinstance(batch, (tuple, list)):
        items = batch
    else:
        return None
    for v in items:
        b = batch_size_of(v)
        if b is not None:
            return b
    return None


def slice_batch(batch: Any, indices: Sequence[int], batch_size: int | None = None) -> Any:
    """The sub-batch at ``indices`` along dim 0, keeping the structure.

    Tensors and NumPy arrays whose dim 0 equals the batch size are indexed; tuples,
    lists, namedtuples and mappings are walked; everything else (scalars, strings, a
    shared (L, L) mask, tensors of another leading size) is passed through unchanged.
    ``batch_size`` defaults to :func:`batch_size_of`; give it when a non-batch tensor
    comes first or could have the same leading size by chance.
    """
    if batch_size is None:
        batch_size = batch_size_of(batch)
    if batch_size is None:
        return batch
    idx = [int(i) for i in indices]
    for i in idx:
        if not -batch_size <= i < batch_size:
            raise IndexError(f"sample index {i} is outside a batch of {batch_size}")
    return _slice(batch, idx, batch_size)


def _slice(x: Any, idx: list[int], b: int) -> Any:
    if isinstance(x, torch.Tensor):
        if x.ndim > 0 and x.shape[0] == b:
            return x[torch.tensor(idx, dtype=torch.long, device=x.device)]
        return x
    if isinstance(x, np.ndarray):
        return x[idx] if x.ndim > 0 and x.shape[0] == b else x
    if isinstance(x, Mapping):
        out = {k: _slice(v, idx, b) for k, v in x.items()}
        try:
            return type(x)(out)
        except Exception:  # a mapping type that cannot be rebuilt from a dict
            return out
    if isinstance(x, tuple) and hasattr(x, "_fields"):  # namedtuple
        return type(x)(*(_slice(v, idx, b) for v in x))
    if isinstance(x, (tuple, list)):
        return type(x)(_slice(v, idx, b) for v in x)
    return x

"""Row hashes for the exact checks (duplicates, label conflicts, leakage).

Each value becomes a canonical 64-bit code (every NaN is one NaN, -0.0 is 0.0; strings
and lists hash their elements with their positions), mixed once with its column's salt
by the splitmix64 finaliser: ``m_c = mix(code ^ salt(column))``. A row's feature hash is
two sums over its columns, ``h1 = sum m_c`` and ``h2 = sum odd_c * m_c``: rows that
differ in one column collide with probability 2^-64 (n^2 / 2^65 over n rows, ~1e-6 at
5 M rows), rows that differ in several far less; summing makes the hash independent of
column order and of a column missing from one file (a null adds 0). All vectorised
NumPy, one mix per value, no Python per row.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_C1 = np.uint64(0xBF58476D1CE4E5B9)
_C2 = np.uint64(0x94D049BB133111EB)
_GOLD = np.uint64(0x9E3779B97F4A7C15)
_CANON_NAN = np.float64("nan").view(np.uint64)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def mix(x: np.ndarray, tmp: np.ndarray | None = None) -> np.ndarray:
    """splitmix64 finaliser, in place on a fresh uint64 array (returns it); ``tmp``: a
    scratch array of the same size, spared three allocations."""
    if tmp is None:
        tmp = np.empty_like(x)
    np.right_shift(x, _S30, out=tmp)
    x ^= tmp
    x *= _C1
    np.right_shift(x, _S27, out=tmp)
    x ^= tmp
    x *= _C2
    np.right_shift(x, _S31, out=tmp)
    x ^= tmp
    return x


_GOLD_TABLE: list[np.ndarray] = []


def _gold_table(n: int) -> np.ndarray | None:
    """``arange(m) * GOLD`` (m >= n) for slices of list elements, made once; None past
    twice the slice size (one enormous list: computed directly)."""
    if n > 2 * LIST_CHUNK:
        return None
    if not _GOLD_TABLE or len(_GOLD_TABLE[0]) < n:
        t = np.arange(max(n, 2 * LIST_CHUNK), dtype=np.uint64)
        t *= _GOLD
        _GOLD_TABLE[:] = [t]
    return _GOLD_TABLE[0]


def salt(name: str) -> tuple[np.uint64, np.uint64]:
    d = hashlib.blake2b(name.encode(), digest_size=16).digest()
    a = np.frombuffer(d, np.uint64)
    return a[0], a[1] | np.uint64(1)  # (xor salt, odd multiplier)


def _segments(elem: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Sum of per-element hashes (already position-mixed) per segment, via a wrapping
    cumulative sum: handles empty segments, no Python loop."""
    cs = np.concatenate([np.zeros(1, np.uint64), np.cumsum(elem, dtype=np.uint64)])
    return cs[starts + lengths] - cs[starts]


def _raw(arr: pa.Array) -> np.ndarray:
    """Canonical 64-bit codes, one per slot, before the final mix: the IEEE bits of a
    float (+0.0 for -0.0, one NaN), an integer's value, a hash for strings and lists.
    Equal values get equal codes; nulls are masked by the caller."""
    t = arr.type
    if pa.types.is_dictionary(t):
        arr, t = arr.dictionary_decode(), t.value_type
    n = len(arr)
    if pa.types.is_null(t) or n == 0:
        return np.zeros(n, np.uint64)
    if pa.types.is_floating(t) or pa.types.is_decimal(t):
        raw = arr.to_numpy(zero_copy_only=False)
        if raw.dtype.kind == "f":
            v = np.add(raw, 0.0, dtype=np.float64)  # -0.0 + 0.0 == +0.0; one pass, a new array
        else:  # decimals
            v = raw.astype(np.float64) + 0.0
        h = v.view(np.uint64)
        with np.errstate(invalid="ignore", over="ignore"):
            maybe_nan = np.isnan(v.sum())  # a NaN makes the sum NaN (so does Inf - Inf)
        if maybe_nan:
            nan = np.isnan(v)
            h[nan] = _CANON_NAN
        return h ^ np.uint64(1)
    if pa.types.is_integer(t) or pa.types.is_boolean(t):
        # cast first (a boolean column cannot take fill_null(0)); unsafe: a uint64 above
        # 2**63 keeps its bits instead of failing the cast
        as_int = pc.cast(arr, pa.int64(), safe=False).fill_null(0)
        return as_int.to_numpy().view(np.uint64) ^ np.uint64(2)
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return _list_raw(arr)
    if pa.types.is_struct(t):
        h = np.zeros(n, np.uint64)
        for fld, child in zip(t, arr.flatten()):
            h += value_hash(child, salt(fld.name)[0])
        return h
    if not (pa.types.is_string(t) or pa.types.is_large_string(t)
            or pa.types.is_binary(t) or pa.types.is_large_binary(t)):
        arr = arr.cast(pa.string())  # dates, times, timestamps: their text is canonical
    return _bytes_hash(arr)


# Elements of a list column hashed at once: ~2 MB arrays, so the dozen passes over them
# (codes, positions, two mixes, the running sum) stay in cache instead of streaming a
# batch's 10-100 MB of elements through memory a dozen times (measured: half the time).
LIST_CHUNK = 1 << 18


def _list_raw(arr: pa.Array) -> np.ndarray:
    """A list's code: the sum of its elements' codes, each mixed with its position,
    mixed with the length. Long arrays are hashed in slices of whole rows (a row's code
    depends only on its own list, so slicing changes nothing)."""
    fixed = pa.types.is_fixed_size_list(arr.type)
    if not fixed and arr.null_count == 0 and len(arr) > 1:
        off = arr.offsets.to_numpy()
        if int(off[-1] - off[0]) > LIST_CHUNK:
            marks = off[0] + np.arange(LIST_CHUNK, int(off[-1] - off[0]), LIST_CHUNK)
            cuts = np.unique(np.concatenate([[0], np.searchsorted(off, marks), [len(arr)]]))
            out = np.empty(len(arr), np.uint64)
            for r0, r1 in zip(cuts[:-1].tolist(), cuts[1:].tolist()):
                out[r0:r1] = _list_raw_slice(arr.slice(r0, r1 - r0))
            return out
    return _list_raw_slice(arr)


def _list_raw_slice(arr: pa.Array) -> np.ndarray:
    values = arr.flatten()  # null lists' elements skipped
    child = _raw(values)
    if values.null_count:
        child[~values.is_valid().to_numpy(zero_copy_only=False)] = np.uint64(0x5BD1E995)
    if arr.null_count == 0 and not pa.types.is_fixed_size_list(arr.type):
        off = arr.offsets.to_numpy().astype(np.int64)
        lengths = np.diff(off)
        starts = off[:-1] - off[0]
    else:
        lengths = pc.list_value_length(arr).fill_null(0).to_numpy().astype(np.int64)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    # element code mixed with its position: one mix per element, the list's cost.
    # (i - start) * GOLD = i * GOLD - start * GOLD (mod 2**64): i * GOLD from a table.
    n = len(values)
    table = _gold_table(n)
    if table is not None:
        pos = np.repeat(starts.view(np.uint64) * _GOLD, lengths)
        np.subtract(table[:n], pos, out=pos)
    else:
        pos = np.arange(n, dtype=np.int64)
        pos -= np.repeat(starts, lengths)
        pos = pos.view(np.uint64)
        pos *= _GOLD
    child ^= pos
    elem = mix(child, pos)  # pos: scratch
    cs = np.empty(len(elem) + 1, np.uint64)  # wrapping running sum: a segment's sum is a difference
    cs[0] = 0
    np.cumsum(elem, out=cs[1:])
    seg = cs[starts + lengths]
    seg -= cs[starts]
    ln = lengths.astype(np.uint64)
    ln *= _C2
    seg += ln
    seg += np.uint64(5)
    return mix(seg)


def value_hash(arr: pa.Array, seed: np.uint64 = np.uint64(0)) -> np.ndarray:
    """One well-mixed uint64 per slot (``seed`` folded in before the mix); 0 for a null."""
    h = mix(_raw(arr) ^ seed)
    if arr.null_count:
        h[~arr.is_valid().to_numpy(zero_copy_only=False)] = 0
    return h


def _bytes_hash(arr: pa.Array) -> np.ndarray:
    large = pa.types.is_large_string(arr.type) or pa.types.is_large_binary(arr.type)
    bufs = arr.buffers()
    off = np.frombuffer(bufs[1], np.int64 if large else np.int32)[arr.offset: arr.offset + len(arr) + 1].astype(np.int64)
    data = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    data = data[off[0]: off[-1]]
    starts, lengths = off[:-1] - off[0], np.diff(off)
    parents = np.repeat(np.arange(len(arr)), lengths)
    pos = (np.arange(len(data), dtype=np.int64) - starts[parents]).astype(np.uint64)
    elem = mix((pos << np.uint64(8)) | data.astype(np.uint64))
    return mix(_segments(elem, starts, lengths) + lengths.astype(np.uint64) * _C1 + np.uint64(4))


def row_hashes(batch: pa.RecordBatch, features: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(h1, h2) feature hashes of each row of ``batch`` over the named columns: one mix
    per value (the column's salt is folded in before it), two sums."""
    n = batch.num_rows
    h1, h2 = np.zeros(n, np.uint64), np.zeros(n, np.uint64)
    for name in features:
        s, odd = salt(name)
        m = value_hash(batch.column(name), s)  # a null is 0: it adds nothing
        h1 += m
        m *= odd
        h2 += m
    return h1, h2

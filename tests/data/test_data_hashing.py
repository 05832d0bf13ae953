"""Row hashes: equal rows hash equal (NaN, -0.0, column order), different rows differ."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
from traindoc.data.hashing import row_hashes, value_hash  # noqa: E402


def _h(cols: dict):
    b = pa.RecordBatch.from_pydict(cols)
    h1, h2 = row_hashes(b, list(cols))
    return list(zip(h1.tolist(), h2.tolist()))


def test_canonical_nan_negative_zero_and_column_order():
    nan2 = np.frombuffer(np.uint64(0x7FF8000000000001).tobytes(), np.float64)[0]  # another NaN
    h = _h({"x": [math.nan, nan2, 0.0, -0.0, 1.0], "s": ["a"] * 5})
    assert h[0] == h[1] and h[2] == h[3] and h[3] != h[4]
    assert _h({"a": [1.0], "b": ["z"]}) == _h({"b": ["z"], "a": [1.0]})
    assert _h({"a": [1.0], "b": [2.0]}) != _h({"a": [2.0], "b": [1.0]})  # salts per column


def test_lists_hash_by_position_and_nulls_differ_from_empty():
    h = value_hash(pa.array([[1, 2], [2, 1], [], None, [1, 2], [1, None], [1]]))
    assert h[0] == h[4] and len({h[0], h[1], h[2], h[3], h[5], h[6]}) == 6
    s = value_hash(pa.array(["ab", "ba", "", None, "ab"]))
    assert s[0] == s[4] and len(set(s[:4].tolist())) == 4


rows = st.lists(st.tuples(st.one_of(st.floats(width=64), st.none()), st.integers(-3, 3),
                          st.lists(st.integers(0, 3), max_size=3), st.sampled_from(["", "a", "b"])),
                min_size=1, max_size=60)


def _canon(v):
    if isinstance(v, float):
        return "nan" if math.isnan(v) else v + 0.0
    return tuple(v) if isinstance(v, list) else v


@settings(max_examples=80, deadline=None)
@given(rows)
def test_hashes_equal_exactly_when_rows_equal(data):
    cols = {"f": [r[0] for r in data], "i": [r[1] for r in data], "l": [r[2] for r in data],
            "s": [r[3] for r in data]}
    h = _h(cols)
    keys = [tuple(_canon(v) for v in r) for r in data]
    for a in range(len(data)):
        for b in range(a + 1, len(data)):
            assert (h[a] == h[b]) == (keys[a] == keys[b]), (data[a], data[b])

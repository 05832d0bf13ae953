"""The speed-ups of the scan change no result: list hashes computed in slices of rows
equal the reference algorithm (the one before, kept here), and the sketch's bucket
counts equal a plain bincount."""

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.compute as pc  # noqa: E402

from traindoc.data import hashing  # noqa: E402
from traindoc.data.hashing import _C2, _GOLD, _raw, mix, value_hash  # noqa: E402


def _reference_list_raw(arr):
    """The list code as first written: one pass over all the elements of the batch."""
    values = arr.flatten()
    child = _raw(values)
    if values.null_count:
        child[~values.is_valid().to_numpy(zero_copy_only=False)] = np.uint64(0x5BD1E995)
    lengths = pc.list_value_length(arr).fill_null(0).to_numpy().astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    pos = np.arange(len(values), dtype=np.int64) - np.repeat(starts, lengths)
    child ^= pos.view(np.uint64) * _GOLD
    elem = mix(child)
    cs = np.concatenate([np.zeros(1, np.uint64), np.cumsum(elem, dtype=np.uint64)])
    seg = cs[starts + lengths] - cs[starts]
    return mix(seg + lengths.astype(np.uint64) * _C2 + np.uint64(5))


def _lists(rng, n, nulls=False, elem_nulls=False, big=False):
    lens = rng.poisson(200 if big else 5, n)
    lens[rng.choice(n, max(1, n // 50), replace=False)] = 0  # empty lists
    out = [rng.integers(-1000, 1000, k).tolist() for k in lens]
    if elem_nulls:
        for i in rng.choice(n, n // 20, replace=False):
            if out[i]:
                out[i][0] = None
    if nulls:
        for i in rng.choice(n, n // 10, replace=False):
            out[i] = None
    return out


@pytest.mark.parametrize("case", ["plain", "null-lists", "null-elements", "big", "big-null-lists", "floats",
                                  "strings", "nested", "sliced", "large_list", "fixed"])
def test_list_hash_in_slices_equals_the_reference(monkeypatch, case):
    rng = np.random.default_rng(11)
    n = 3000
    if case in ("big", "big-null-lists", "sliced"):
        monkeypatch.setattr(hashing, "LIST_CHUNK", 1000)  # many slices, some rows across a cut
    if case == "floats":
        arr = pa.array([[float(x) for x in row] + [float("nan"), -0.0] for row in _lists(rng, n)])
    elif case == "strings":
        arr = pa.array([[str(x) for x in row] for row in _lists(rng, n)])
    elif case == "nested":
        arr = pa.array([[row[:2], row[2:]] for row in _lists(rng, n)])
    elif case == "large_list":
        arr = pa.array(_lists(rng, n, big=True), pa.large_list(pa.int64()))
        monkeypatch.setattr(hashing, "LIST_CHUNK", 5000)
    elif case == "fixed":
        arr = pa.array([[1, 2, 3]] * 10 + [[int(x) for x in rng.integers(0, 9, 3)] for _ in range(n)],
                       pa.list_(pa.int64(), 3))
    else:
        arr = pa.array(_lists(rng, n, nulls="null-lists" in case, elem_nulls=case == "null-elements",
                              big=case.startswith("big") or case == "sliced"))
    if case == "sliced":
        arr = arr.slice(123, 2000)
    want = _reference_list_raw(arr)
    np.testing.assert_array_equal(hashing._list_raw(arr), want)
    got = value_hash(arr, np.uint64(77))
    assert (got[np.asarray(arr.is_valid())] != 0).all()


def test_equal_lists_hash_equal_across_slices(monkeypatch):
    monkeypatch.setattr(hashing, "LIST_CHUNK", 64)
    row = list(range(40))
    arr = pa.array([row] * 50 + [row[::-1]] + [row])
    h = value_hash(arr)
    assert len(set(h[:50].tolist())) == 1 and h[0] == h[-1] and h[50] != h[0]


def _sketch_data(rng):
    x = np.concatenate([rng.normal(size=70_000), rng.lognormal(0, 5, 70_000), -rng.lognormal(0, 40, 70_000),
                        [0.0, -0.0, 5e-324, -5e-324, 1.7e308, -1.7e308, 1.0, -1.0]])
    return rng.permutation(x)


def test_sketch_counts_equal_a_plain_bincount_of_the_bits():
    from traindoc.data.sketch import NB, SHIFT, LogSketch

    rng = np.random.default_rng(5)
    x = _sketch_data(rng)
    want = np.bincount(x.view(np.uint64) >> SHIFT, minlength=NB)
    s = LogSketch()
    for part in (x[:100], x[100:90_000], x[90_000:], np.full(70_000, 3.0), -np.abs(x[:70_000])):
        s.update(part)  # the first batch is short: the sparse path, then dense windows
    want += np.bincount(np.full(70_000, 3.0).view(np.uint64) >> SHIFT, minlength=NB)
    want += np.bincount((-np.abs(x[:70_000])).view(np.uint64) >> SHIFT, minlength=NB)
    np.testing.assert_array_equal(s.counts, want)
    q = LogSketch.from_json(s.to_json())
    assert [q.quantile(p) for p in (0.001, 0.5, 0.999)] == [s.quantile(p) for p in (0.001, 0.5, 0.999)]
    idx = np.frombuffer(__import__("base64").b64decode(s.to_json()["idx"]), np.int32)
    assert (np.diff(idx) > 0).all()  # the sparse ids stay ascending


def test_sketch_merge_after_dense_updates_is_exact():
    from traindoc.data.sketch import LogSketch

    rng = np.random.default_rng(6)
    x = _sketch_data(rng)
    a, b, whole = LogSketch(), LogSketch(), LogSketch()
    a.update(x[:100_000])
    b.update(x[100_000:])
    whole.update(x)
    np.testing.assert_array_equal(a.merge(b).counts, whole.counts)


@pytest.mark.parametrize("kind", ["f64", "f32", "int", "huge", "nonfinite"])
def test_numeric_profile_fast_path_equals_the_full_path(kind):
    """A batch without nulls skips the finiteness passes (integers, or a finite sum):
    the same profile as the full path, which a validity mask forces."""
    from traindoc.data.profile import NumericProfile

    rng = np.random.default_rng(8)
    batches = []
    for i in range(4):
        x = rng.normal(3, 2, 70_000 if i else 500)
        if kind == "f32":
            x = x.astype(np.float32).astype(np.float64)
        elif kind == "int":
            x = rng.integers(-50, 1000, len(x)).astype(np.float64)
        elif kind == "huge":
            x[7] = 1.7e308
            x[8] = 1.7e308  # the sum overflows: the full path, as before
        elif kind == "nonfinite" and i == 2:
            x[[3, 9]] = [np.nan, -np.inf]
        batches.append(x)
    fast, full = NumericProfile(), NumericProfile()
    n = 0
    for x in batches:
        rids = np.arange(n, n + len(x), dtype=np.uint64)
        n += len(x)
        fast.update(x, rids, None, kind == "int")
        full.update(x, rids, np.ones(len(x), bool), kind == "int")
    import json

    assert json.dumps(fast.to_json()) == json.dumps(full.to_json())  # NaN (the huge case's M2) too


def test_list_length_counts_equal_np_unique():
    from traindoc.data.profile import ListProfile

    rng = np.random.default_rng(9)
    lens = rng.poisson(20, 10_000)
    rids = np.arange(10_000, dtype=np.uint64)
    a = ListProfile()
    a.update_lengths(lens, rids, None)
    assert list(a.lengths) == sorted(a.lengths)  # ascending, as np.unique gave them
    a.update_lengths(np.array([0, 3_000_000, 5]), rids[:3], None)  # past the bincount bound: np.unique
    u, c = np.unique(np.concatenate([lens, [0, 3_000_000, 5]]), return_counts=True)
    assert a.lengths == dict(zip(u.tolist(), c.tolist()))


def _hash_file(path, h1, h2, lh, rid):
    import pyarrow.parquet as pq

    u = lambda v: pa.array(np.asarray(v, np.uint64))  # noqa: E731
    pq.write_table(pa.table({"h1": u(h1), "h2": u(h2), "lh": u(lh), "rid": u(rid)}), path)
    return str(path)


@pytest.mark.parametrize("planted", [True, False, "many"])
def test_exact_checks_in_memory_prefilter_equals_duckdb_alone(tmp_path, monkeypatch, planted):
    from traindoc.data import exact

    rng = np.random.default_rng(10)
    files, n = [], 0
    for f in range(3):
        m = 5000
        h1, h2 = rng.integers(0, 2**63, m, dtype=np.uint64), rng.integers(0, 2**63, m, dtype=np.uint64)
        lh = rng.integers(0, 2, m, dtype=np.uint64)
        if planted:
            h1[10:20], h2[10:20] = 111, 222 + f  # equal h1 in every file, equal h2 within one
            lh[10:15] = 1
            h1[30], h2[30] = 999, 1000  # an h1 seen twice with two different h2: no group
            h1[31], h2[31] = 999, 1001
            if f == 2:
                h1[40:43], h2[40:43] = h1[100], h2[100]  # duplicates of row 100, one label
                lh[40:43] = lh[100]
        if planted == "many":  # most rows repeated: DuckDB groups them all, as before
            h1[1000:], h2[1000:] = h1[1000:] % 7, h2[1000:] % 7
        files.append(_hash_file(tmp_path / f"t{f}.parquet", h1, h2, lh, np.arange(n, n + m)))
        n += m
    vh1, vh2 = rng.integers(0, 2**63, 300, dtype=np.uint64), rng.integers(0, 2**63, 300, dtype=np.uint64)
    vh1[5], vh2[5] = 111, 222  # leaked
    val = [_hash_file(tmp_path / "v.parquet", vh1, vh2, np.zeros(300), (1 << 60) + np.arange(300))]
    if planted == "many":
        monkeypatch.setattr(exact, "IN_MEMORY_ROWS", 50_000)  # 12 000 candidates > 5 000: all to DuckDB
    got = exact.exact_checks(files, val, True, str(tmp_path))
    monkeypatch.setattr(exact, "IN_MEMORY_ROWS", 0)
    want = exact.exact_checks(files, val, True, str(tmp_path))
    assert got.to_json() == want.to_json()
    if planted is True:
        assert got.duplicate_rows > 0 and got.conflict_groups == 3 and got.leaked_rows == 1


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint64, np.uint8])
def test_integer_elements_profile_equals_the_float_update(dtype):
    from traindoc.data.profile import NumericProfile

    rng = np.random.default_rng(12)
    hi = 200 if dtype == np.uint8 else 1_000_000
    parts = [rng.integers(0, hi, 50_000).astype(dtype) for _ in range(3)]
    if dtype in (np.int64, np.int32):
        parts[1] = (parts[1].astype(np.int64) - hi // 2).astype(dtype)
    if dtype == np.uint64:
        parts.append(np.array([2**63 + 5, 3], np.uint64))  # past 2**53: the float update
    a, b = NumericProfile(), NumericProfile()
    for p in parts:
        a.update_ints(p)
        b.update(p.astype(np.float64), None, None, True, light=True)
    import json

    assert json.dumps(a.to_json()) == json.dumps(b.to_json())


def test_float_hash_codes_unchanged():
    """-0.0 is 0.0, every NaN is one NaN, float32 widened: as the codes were first made."""
    from traindoc.data.hashing import _CANON_NAN

    def reference(arr):
        v = arr.to_numpy(zero_copy_only=False).astype(np.float64) + 0.0
        h = v.view(np.uint64)
        nan = np.isnan(v)
        if nan.any():
            h[nan] = _CANON_NAN
        return h ^ np.uint64(1)

    rng = np.random.default_rng(13)
    x = rng.normal(size=1000)
    weird = np.array([-0.0, 0.0, np.nan, -np.nan, np.inf, -np.inf, 1e308, -1e308])
    for arr in (pa.array(x), pa.array(x.astype(np.float32)), pa.array(np.concatenate([x, weird])),
                pa.array([1.0, None, -0.0, float("nan")]), pa.array(np.array([np.inf, -np.inf, 1.0])),
                pa.array([__import__("decimal").Decimal("1.5"), None], pa.decimal128(5, 2))):
        np.testing.assert_array_equal(_raw(arr), reference(arr))


def test_sketch_window_from_the_callers_min_and_max():
    from traindoc.data.sketch import LogSketch

    rng = np.random.default_rng(14)
    for x in (rng.normal(size=50_000), -rng.lognormal(0, 3, 50_000), rng.lognormal(0, 3, 50_000),
              np.concatenate([rng.normal(size=50_000), [0.0, -0.0, 5e-324, -1e300]]),
              np.array([0.0, -0.0, 1.0] * 30_000), np.array([-1.0, -0.0, 0.0] * 30_000),
              np.array([-0.0, 0.0] * 30_000), np.array([0.0, -0.0] * 30_000)):
        a, b = LogSketch(), LogSketch()
        a.update(x)
        b.update(x, float(x.min()), float(x.max()))
        np.testing.assert_array_equal(a.counts, b.counts)


def test_list_hash_table_grows_with_the_slice(monkeypatch):
    monkeypatch.setattr(hashing, "_GOLD_TABLE", [])
    monkeypatch.setattr(hashing, "LIST_CHUNK", 10)  # a 20-entry table first
    small = pa.array([[1, 2, 3]] * 4)
    np.testing.assert_array_equal(hashing._list_raw(small), _reference_list_raw(small))
    monkeypatch.setattr(hashing, "LIST_CHUNK", 1 << 18)
    big = pa.array([list(range(50))] * 100)  # 5 000 elements: past the first table
    np.testing.assert_array_equal(hashing._list_raw(big), _reference_list_raw(big))
    huge = pa.array([list(range(600_000))])  # one list past twice the slice: no table
    np.testing.assert_array_equal(hashing._list_raw(huge), _reference_list_raw(huge))

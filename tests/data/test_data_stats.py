"""Properties of the mergeable statistics: the sketch's relative error in the tails, and
that any split of the data into units merges to the same profile as one pass."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

pytest.importorskip("pyarrow")
from traindoc.data.profile import K, ListProfile, NumericProfile, pack  # noqa: E402
from traindoc.data.sketch import ALPHA, LogSketch  # noqa: E402

finite = st.floats(min_value=-1e150, max_value=1e150, allow_nan=False, allow_infinity=False, width=64)
values = hnp.arrays(np.float64, st.integers(1, 400), elements=finite)
with_bad = hnp.arrays(np.float64, st.integers(1, 300),
                      elements=st.one_of(finite, st.sampled_from([math.nan, math.inf, -math.inf, -0.0])))
QS = [0.0, 0.001, 0.01, 0.25, 0.5, 0.75, 0.99, 0.999, 1.0]


@settings(max_examples=60, deadline=None)
@given(values)
def test_sketch_quantiles_within_relative_error(x):
    s = LogSketch()
    s.update(x)
    for q in QS:
        got = s.quantile(q, x.min(), x.max())
        want = np.quantile(x, q, method="lower")
        assert abs(got - want) <= ALPHA * abs(want) + 1e-300, (q, got, want)


def test_sketch_far_tail_on_a_large_sample():
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.lognormal(3, 1, 1_000_000), -rng.exponential(5, 300_000)])
    s = LogSketch()
    for part in np.array_split(x, 7):
        s.update(part)
    for q in (0.0001, 0.001, 0.5, 0.999, 0.9999):
        want = np.quantile(x, q, method="lower")
        assert abs(s.quantile(q) - want) <= ALPHA * abs(want)


@settings(max_examples=60, deadline=None)
@given(values, st.integers(0, 400))
def test_sketch_merge_is_exact(x, cut):
    whole, a, b = LogSketch(), LogSketch(), LogSketch()
    whole.update(x)
    a.update(x[:cut])
    b.update(x[cut:])
    assert np.array_equal(a.merge(b).counts, whole.counts)
    assert np.array_equal(LogSketch.from_json(whole.to_json()).counts, whole.counts)


def _profile(x, rows, cuts):
    parts = []
    for lo, hi in zip([0, *cuts], [*cuts, len(x)]):
        p = NumericProfile()
        if hi > lo:
            p.update(x[lo:hi], rows[lo:hi], None, False)
        parts.append(p)
    out = parts[0]
    for p in parts[1:]:
        out.merge(NumericProfile.from_json(p.to_json()))  # through the cache/transport format
    return out


@settings(max_examples=50, deadline=None)
@given(with_bad, st.lists(st.integers(0, 300), max_size=4))
def test_numeric_profile_split_merges_to_one_pass(x, cuts):
    cuts = sorted(min(c, len(x)) for c in cuts)
    rows = pack(0, np.arange(len(x), dtype=np.uint64))
    one, split = _profile(x, rows, []), _profile(x, rows, cuts)
    fin = x[np.isfinite(x)]
    assert (split.nan, split.posinf, split.neginf) == (np.isnan(x).sum(), np.isposinf(x).sum(), np.isneginf(x).sum())
    assert split.count == one.count == len(fin)
    if len(fin):
        assert split.min == fin.min() and split.max == fin.max()
        scale = max(1.0, np.abs(fin).max())
        assert math.isclose(split.mean, fin.mean(), rel_tol=1e-9, abs_tol=1e-9 * scale)
        # Chan's merge of M2 is stable: compare the variance against NumPy's two-pass one
        assert math.isclose(split.m2 / len(fin), fin.var(), rel_tol=1e-6, abs_tol=1e-12 * scale * scale)
        top = np.sort(fin)[::-1][:K]
        assert np.array_equal(split.top[0], top) and np.array_equal(one.top[0], top)
        assert np.array_equal(split.bottom[0], np.sort(fin)[:K])
    bad_rows = np.flatnonzero(~np.isfinite(x))[:K]
    assert split.nonfinite_rows.tolist() == bad_rows.tolist()


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.int64, st.integers(1, 500), elements=st.integers(0, 10_000)), st.integers(0, 500))
def test_list_length_quantiles_are_exact_and_merge(lens, cut):
    a, b, whole = ListProfile(), ListProfile(), ListProfile()
    rows = pack(0, np.arange(len(lens), dtype=np.uint64))
    whole.update_lengths(lens, rows, None)
    a.update_lengths(lens[:cut], rows[:cut], None)
    b.update_lengths(lens[cut:], rows[cut:], None)
    merged = ListProfile.from_json(a.merge(b).to_json())
    for q in QS:
        want = int(np.quantile(lens, q, method="inverted_cdf"))
        assert merged.length_quantile(q) == whole.length_quantile(q) == want
    assert merged.longest[0].tolist() == sorted(lens.tolist(), reverse=True)[:K]

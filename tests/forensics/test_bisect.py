"""Group testing: exact on random bad sets, within the call bound, and batch slicing."""

from collections import namedtuple

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from traindoc.forensics.bisect import batch_size_of, find_bad_samples, max_calls, slice_batch


@st.composite
def batches(draw, max_bad=3):
    n = draw(st.integers(min_value=1, max_value=1024))
    k = draw(st.integers(min_value=0, max_value=min(max_bad, n)))
    bad = draw(st.sets(st.integers(min_value=0, max_value=n - 1), min_size=k, max_size=k))
    return n, bad


def oracle(bad, log):
    def fails(group):
        assert group == sorted(group) and len(set(group)) == len(group)
        log.append(list(group))
        return bool(bad.intersection(group))
    return fails


@settings(max_examples=300, deadline=None)
@given(batches())
def test_exact_for_up_to_three_bad(case):
    n, bad = case
    log = []
    r = find_bad_samples(oracle(bad, log), n)
    assert r.bad == sorted(bad)
    assert r.calls == len(log)
    assert r.calls <= max_calls(n, len(bad))
    assert r.verified is (True if bad else None)
    assert not r.stopped_early


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=1, max_value=1024), st.data())
def test_one_bad_sample_costs_about_log2_n(n, data):
    b = data.draw(st.integers(min_value=0, max_value=n - 1))
    r = find_bad_samples(lambda g: b in g, n)
    depth = int(np.ceil(np.log2(n))) if n > 1 else 0
    assert r.bad == [b]
    assert r.calls <= depth + 3  # whole batch, one per halving, the rest, the sample alone
    assert find_bad_samples(lambda g: b in g, n, max_bad=1, verify=False).calls <= depth + 1


def test_far_fewer_calls_than_a_scan():
    r = find_bad_samples(lambda g: 700 in g, 1024)
    assert r.calls <= 13 < 1024


def test_clean_batch_costs_one_call():
    r = find_bad_samples(lambda g: False, 512)
    assert (r.bad, r.calls, r.verified) == ([], 1, None)


def test_max_bad_stops_early():
    r = find_bad_samples(lambda g: bool({3, 9, 20} & set(g)), 64, max_bad=1)
    assert r.bad == [3] and r.stopped_early


def test_joint_failure_is_not_verified():
    # fails only when samples 2 and 5 are together (a batch statistic): not per-sample
    r = find_bad_samples(lambda g: 2 in g and 5 in g, 8)
    assert r.verified is False


def test_bad_arguments():
    with pytest.raises(ValueError):
        find_bad_samples(lambda g: True, -1)
    with pytest.raises(ValueError):
        find_bad_samples(lambda g: True, 4, max_bad=0)
    assert find_bad_samples(lambda g: True, 0).bad == []


Pair = namedtuple("Pair", "x y")


def test_slice_batch_keeps_structure_and_passes_non_batch_items():
    x = torch.arange(24.0).view(6, 4)
    causal = torch.ones(4, 4)
    batch = {"inputs": (x, [x[:, 0].long()]), "mask": causal, "n": 3, "tag": "a",
             "pair": Pair(np.arange(6), x), "ids": np.arange(6) * 10}
    out = slice_batch(batch, [1, 4])
    assert torch.equal(out["inputs"][0], x[[1, 4]])
    assert isinstance(out["inputs"], tuple) and isinstance(out["inputs"][1], list)
    assert torch.equal(out["inputs"][1][0], torch.tensor([4, 16]))
    assert out["mask"] is causal and out["n"] == 3 and out["tag"] == "a"
    assert isinstance(out["pair"], Pair) and list(out["pair"].x) == [1, 4]
    assert list(out["ids"]) == [10, 40]
    assert batch_size_of(batch) == 6


def test_slice_batch_explicit_size_and_bounds():
    mask = torch.ones(3, 3)  # same leading size as the batch by chance: pass batch_size
    x = torch.randn(5, 2)
    out = slice_batch((mask, x), [0], batch_size=5)
    assert out[0] is mask and out[1].shape == (1, 2)
    with pytest.raises(IndexError):
        slice_batch(x, [5])
    assert slice_batch("no tensors", [0]) == "no tensors"

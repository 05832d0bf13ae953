"""The comparisons behind every verdict, on hand-made loss curves."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from traindoc.confirm.judge import fixes
from traindoc.confirm.summary import summarize


def curve(start, end, n=100, nan_at=None):
    v = np.geomspace(start, end, n)
    if nan_at is not None:
        v[nan_at:] = np.nan
    return summarize(v)


def test_nan_removed_is_confirmed():
    assert fixes(curve(2, 1, nan_at=40), curve(2, 0.5), "x").verdict == "confirmed"


def test_nan_at_the_same_step_is_refuted():
    assert fixes(curve(2, 1, nan_at=40), curve(2, 1, nan_at=42), "x").verdict == "refuted"


def test_nan_much_later_is_inconclusive():
    assert fixes(curve(2, 1, nan_at=20), curve(2, 1, nan_at=80), "x").verdict == "inconclusive"


def test_run_that_ends_before_the_nan_step_is_inconclusive():
    assert fixes(curve(2, 1, nan_at=80), curve(2, 1, n=50), "x").verdict == "inconclusive"


def test_decisively_lower_loss_is_confirmed_and_same_loss_refuted():
    assert fixes(curve(2, 1.5), curve(2, 0.3), "x").verdict == "confirmed"
    assert fixes(curve(2, 1.5), curve(2, 1.5), "x").verdict == "refuted"
    assert fixes(curve(2, 1.5), curve(2, 1.0), "x").verdict == "inconclusive"


def test_two_losses_near_zero_do_not_halve():
    # 2e-4 -> 1e-4 is a ratio of 0.5 but a change nobody would call decisive
    assert fixes(curve(1, 2e-4), curve(1, 1e-4), "x").verdict != "confirmed"


def test_change_that_makes_the_run_nonfinite_refutes():
    assert fixes(curve(2, 1.5), curve(2, 1, nan_at=30), "x").verdict == "refuted"


def test_unusable_runs_are_inconclusive():
    assert fixes(summarize(np.zeros(0)), curve(2, 1), "x").verdict == "inconclusive"
    assert fixes(curve(2, 1), summarize(np.array([1.0, 2.0])), "x").verdict == "inconclusive"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=32), min_size=0, max_size=60),
       st.lists(st.floats(allow_nan=True, allow_infinity=True, width=32), min_size=0, max_size=60))
def test_any_curves_give_a_verdict(a, b):
    v = fixes(summarize(np.array(a, dtype=float)), summarize(np.array(b, dtype=float)), "x")
    assert v.verdict in ("confirmed", "refuted", "inconclusive") and v.text
    assert v.effect is None or not math.isnan(v.effect)


@given(st.lists(st.floats(0.01, 100), min_size=4, max_size=80))
def test_summary_start_and_end_lie_within_the_curve(xs):
    s = summarize(np.array(xs))
    assert min(xs) <= s.start <= max(xs) and min(xs) <= s.end <= max(xs) and s.first_bad is None


def test_the_budget_runs_past_a_late_symptom():
    from types import SimpleNamespace

    import numpy as np

    from traindoc.confirm.run import DEFAULT_STEPS, budget
    from traindoc.findings import Finding

    def run(n, bad_at=None):
        v = np.linspace(2.0, 0.2, n)
        if bad_at is not None:
            v[bad_at:] = np.nan
        s = SimpleNamespace(empty=False, values=v, steps=np.arange(n))
        return SimpleNamespace(meta={"steps": n}, series=lambda name: s)

    late = SimpleNamespace(symptoms=[Finding("loss-divergence", "warning", "up", location={"step": 600})])
    assert budget(run(1200), None, late) == 900  # gradients never cleared: the climb starts at step 600
    assert budget(run(700), None, late) == 700  # not past the run's own end
    early = SimpleNamespace(symptoms=[Finding("loss-divergence", "warning", "up", location={"step": 100})])
    assert budget(run(1200), None, early) == DEFAULT_STEPS
    assert budget(run(1200, bad_at=50), None, late) == 75  # a NaN: its step and half again
    assert budget(run(1200), 30, late) == 30  # --steps wins

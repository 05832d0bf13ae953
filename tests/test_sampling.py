"""The sampler: enough looks early in a run, the budget's rate later."""

from traindoc.monitor.sampling import Sampler


def _sampled(s: Sampler, n: int) -> list[int]:
    out = []
    for step in range(n):
        if s.want(step):
            s.mark_sampled(step)
            out.append(step)
    return out


def test_short_run_gets_several_sampled_steps_even_with_a_wide_interval():
    s = Sampler()
    s.interval = 98  # what the budget asked for on a fast model
    got = _sampled(s, 188)
    assert got[:3] == [0, 1, 2]
    assert len(got) >= 10
    assert all(b - a >= s.min_interval for a, b in zip(got[3:], got[4:]))


def test_long_run_stays_at_the_budget_rate():
    s = Sampler()
    s.interval = 100
    n = len(_sampled(s, 100_000))
    assert 1000 <= n <= 1000 * 1.05  # the early cap adds a few dozen at most


def test_fixed_interval_and_forced_steps():
    s = Sampler(every=7)
    s.force(12)
    got = _sampled(s, 30)
    assert got[:13] == list(range(13)) and got[13:] == [14, 21, 28]

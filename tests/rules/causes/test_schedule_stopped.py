"""lr-too-low from a schedule that stops training: StepLR with gamma 0 sets the learning rate
to 0 at its first milestone (bench/real 364), and the loss stays where it was for the rest
of the run. A cosine schedule reaching 0 at its end, or a step decay after which the loss
still falls, is not that."""

import numpy as np

from traindoc.diagnose import diagnose

N = 300


def _lr_finding(make_run, lr, loss):
    return [c for c in diagnose(make_run(lr=lr, loss=loss)).causes if c.name == "lr-too-low"]


def _loss(fall_until, tau=10):
    rng = np.random.default_rng(3)
    s = np.arange(N)
    return 0.2 + 0.5 * np.exp(-np.minimum(s, fall_until) / tau) + 0.005 * rng.standard_normal(N)


def test_a_learning_rate_set_to_zero_early_is_lr_too_low(make_run):
    found = _lr_finding(make_run, lambda s: 3e-3 if s < 30 else 0.0, _loss(30, tau=20))
    assert found and found[0].severity == "error" and found[0].location["step"] == 30, found
    assert "stayed there for the remaining 90% of the run" in found[0].message


def test_a_cosine_schedule_to_zero_at_its_end_is_not(make_run):
    cos = lambda s: 3e-3 * 0.5 * (1 + np.cos(np.pi * s / (N - 1)))  # noqa: E731
    assert not _lr_finding(make_run, cos, _loss(N))


def test_a_learning_rate_cut_after_the_loss_converged_is_not(make_run):
    # lr cut to ~0 for the last 70 % of a run whose loss had flattened long before (a
    # ReduceLROnPlateau's cuts): nothing was cut off
    assert not _lr_finding(make_run, lambda s: 3e-3 if s < 90 else 1e-8, _loss(N))


def test_a_learning_rate_zeroed_while_the_loss_still_falls_after_it_is_not(make_run):
    # another group (or optimizer) trains on: the loss keeps falling after the first group's fall
    assert not _lr_finding(make_run, lambda s: 3e-3 if s < 30 else 0.0, _loss(N))

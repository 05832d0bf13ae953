"""Consequences of gradients never cleared (bench/real 365: an MLP whose step function never
calls zero_grad): every update is the sum of all gradients so far, so units die and the
loss jumps. When the monitor measured stale `.grad` on most sampled steps, dead-relu drops
below missing-zero-grad and a loss jump is not read as an outlier batch."""

import numpy as np

from traindoc.diagnose import diagnose

N = 300
ACT = {"0": {"std": 1.0, "absmax": 3.0}, "1": {"dead": 0.99, "std": 0.1, "absmax": 1.0},
       "2": {"std": 0.9, "absmax": 3.0}, "4": {"std": 1.0, "absmax": 3.0}}


def _conf(d, name):
    return max((c.confidence for c in d.causes if c.name == name), default=0.0)


def test_units_dead_under_stale_gradients_rank_below_the_stale_gradients(make_run):
    flat = 1.5 + 0.01 * np.random.default_rng(4).standard_normal(N)
    d = diagnose(make_run(act=ACT, loss=flat, carried=1.0))
    assert d.causes[0].name == "missing-zero-grad", [(c.name, c.confidence) for c in d.causes]
    assert 0 < _conf(d, "dead-relu") < _conf(d, "missing-zero-grad")
    assert "missing-zero-grad" in next(c.message for c in d.causes if c.name == "dead-relu")
    # near miss: the same dead layer with gradients cleared is dead-relu first
    d = diagnose(make_run(act=ACT, loss=flat, carried=0.0))
    assert d.causes[0].name == "dead-relu"


def test_a_loss_jump_under_stale_gradients_is_not_an_outlier_batch(make_run):
    loss = 1.0 + 0.01 * np.random.default_rng(5).standard_normal(N)
    loss[200] = 400.0
    assert "data-outlier" in [c.name for c in diagnose(make_run(loss=loss, carried=0.0)).causes]
    assert "data-outlier" not in [c.name for c in diagnose(make_run(loss=loss, carried=1.0)).causes]

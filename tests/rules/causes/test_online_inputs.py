"""data-unnormalized for online SGD (a batch of one sample a step, bench/real 334's shape):
the first step's single input is a poor draw of the inputs' scale, and a model of one
layer records its statistics under the model's own name."""

from __future__ import annotations

import numpy as np

from traindoc.diagnose import diagnose

ONE_LAYER = [["", "Linear", 2]]
FIRST_INPUTS = [0.5, 110.0, 339.0]  # pulse counts 0..600 drawn one at a time: the first was 0.5


def _run(make_run, batch, gain=0.84, blowup=True):
    n = 60
    loss = np.r_[4.4 * 1e7 ** np.arange(7), [np.inf] * (n - 7)] if blowup else 1.0 + 0.1 * np.random.default_rng(0).random(n)
    grad = np.r_[10.0 * 1e3 ** np.arange(7), [np.nan] * (n - 7)] if blowup else 0.5 * np.ones(n)

    def x(s):
        return FIRST_INPUTS[s] if s < 3 else 300.0

    def out(s):  # the layer's output: its gain times the input, then the divergence's
        return gain * x(s) * (1.0 if s == 0 else 1e3 ** s)

    return diagnose(make_run(n=n, loss=loss, grad=grad, modules=ONE_LAYER, params=["weight", "bias"], opt="SGD",
                             lr=0.01, act={"model": {"absmax": out}}, sampled_extra={"in/absmax": x}, batch=batch,
                             grad_bad_from=7 if blowup else None))


def _du(d):
    return next((c for c in d.causes if c.name == "data-unnormalized"), None)


def test_raw_inputs_drawn_one_at_a_time(make_run):
    du = _du(_run(make_run, batch=1))
    assert du is not None and "first three steps" in du.message
    assert "284.8" in du.message  # gain 0.84 x 339, not the diverged 3.4e8 of step 2
    assert du.severity == "error" and du.confidence >= 0.55


def test_a_batch_of_many_reads_its_first_step_only(make_run):
    # 32 samples at step 0 whose largest is 0.5: the inputs are on a sane scale
    assert _du(_run(make_run, batch=32)) is None


def test_a_layer_that_scales_its_inputs_down(make_run):
    # the same inputs through a layer of gain 0.01 at step 0 (a normalising first layer)
    assert _du(_run(make_run, batch=1, gain=0.01)) is None

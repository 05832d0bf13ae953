"""exploding-gradient in a recurrent net trained without clipping, from the two shapes of
bench/real 291 and 292: a single step whose gradient is hundreds of times the first step's
(backpropagation through 120 steps; the recurring-spikes test needs two), and a first
update that, at a learning rate in the optimizer's usual range, moved the weights by their
own size before the loss went NaN. And data-unnormalized, which must not blame inputs
recorded on a sane scale for a ReLU RNN's large output (its recurrence sums them)."""

from __future__ import annotations

import numpy as np

from traindoc.diagnose import diagnose

N = 300
RNN = [["", "CharRNN", 0], ["emb", "Embedding", 896], ["rnn", "RNN", 20736], ["out", "Linear", 3612]]
MLP = [["", "Sequential", 0], ["0", "Linear", 896], ["1", "ReLU", 0], ["2", "Linear", 3612]]
PARAMS = ["rnn.weight_hh_l0", "out.weight"]


def _spike(n=N):
    rng = np.random.default_rng(0)
    g = 2.0 * np.exp(0.3 * rng.standard_normal(n))
    g[0], g[9] = 0.64, 515.0
    return g


def _eg(d):
    return next((c for c in d.causes if c.name == "exploding-gradient"), None)


def test_one_jump_in_an_unclipped_recurrent_net(make_run):
    noise = 0.3 * np.random.default_rng(1).standard_normal(N)
    loss = np.where(np.arange(N) <= 9, 2.5, 8.0) + noise  # the update on the spike wrecked the weights
    d = diagnose(make_run(loss=loss, grad=_spike(), modules=RNN, params=PARAMS, opt="SGD", lr=3.0))
    eg = _eg(d)
    assert eg is not None and "first step's norm" in eg.message and eg.confidence >= 0.7
    # the same single spike in a plain MLP: one jump is not a recurring explosion there
    assert _eg(diagnose(make_run(loss=loss, grad=_spike(), modules=MLP, params=["0.weight", "2.weight"],
                                 opt="SGD", lr=3.0))) is None
    # a spike the run shrugs off (the loss keeps falling): nothing
    falling = 2.5 * np.exp(-np.arange(N) / 100) + 0.05 * noise
    assert _eg(diagnose(make_run(loss=falling, grad=_spike(), modules=RNN, params=PARAMS, opt="SGD", lr=0.5))) is None


def test_a_first_update_the_size_of_the_weights_at_a_usual_rate(make_run):
    loss = np.r_[[81.0, 60.0], [np.nan] * (N - 2)]
    grad = np.r_[[7363.0, 5000.0], [np.nan] * (N - 2)]

    def update(s):
        return 1.0 if s == 0 else 1e-3

    d = diagnose(make_run(loss=loss, grad=grad, modules=RNN, params=PARAMS, opt="SGD", lr=0.02, update=update,
                          grad_bad_from=2))
    eg = _eg(d)
    assert eg is not None and "first gradient was enormous" in eg.message
    # at a rate far above SGD's usual range the size of that step is the rate's (lr-too-high)
    d = diagnose(make_run(loss=loss, grad=grad, modules=RNN, params=PARAMS, opt="SGD", lr=5.0, update=update,
                          grad_bad_from=2))
    assert _eg(d) is None or "first gradient was enormous" not in _eg(d).message
    # Adam's first update is lr * sign(g) whatever the gradient: its size says nothing of it
    d = diagnose(make_run(loss=loss, grad=grad, modules=RNN, params=PARAMS, opt="Adam", lr=1e-3, update=update,
                          grad_bad_from=2))
    assert _eg(d) is None
    # an ordinary first update (1e-3 of the weights): nothing said
    d = diagnose(make_run(loss=loss, grad=grad, modules=RNN, params=PARAMS, opt="SGD", lr=0.02, grad_bad_from=2))
    assert _eg(d) is None


def test_a_relu_rnn_output_is_not_the_inputs_scale(make_run):
    act = {"rnn": {"std": 121.9, "absmax": 1181.0}, "out": {"std": 40.0, "absmax": 600.0}}
    kw = dict(modules=RNN[:1] + RNN[2:], params=PARAMS, act=act)
    sane = diagnose(make_run(sampled_extra={"in/absmax": 4.2}, **kw))
    assert "data-unnormalized" not in [c.name for c in sane.causes]
    raw = diagnose(make_run(sampled_extra={"in/absmax": 255.0}, **kw))
    assert "data-unnormalized" in [c.name for c in raw.causes]
    older = diagnose(make_run(**kw))  # a run recorded before in/absmax: the first layer's output decides
    assert "data-unnormalized" in [c.name for c in older.causes]

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


# bench/real 339's first 45 steps (a ReLU RNN, SGD 0.05 with momentum, recorded): the
# gradient norm climbs from 1 to ~10 with 1437 at step 10 and 2172 at step 20 (the first
# widens the trailing spread, so the second reads a robust z of only 3.6), NaN at step 45
G339 = [1.1, 1.1, 0.9, 0.9, 1.1, 1.3, 1.8, 2.3, 4.1, 13.4, 1437.7, 18.7, 17.7, 6.0, 14.3, 3.5, 4.2, 10.0, 8.3, 8.5,
        2171.7, 10.1, 13.1, 12.5, 12.8, 41.7, 7.2, 8.9, 8.4, 53.3, 12.1, 10.7, 6.7, 2.7, 3.4, 6.2, 6.0, 3.5, 2.7, 2.1,
        2.1, 5.4, 7.9, 3.3, 9.9]
L339 = [4.66, 5.1, 4.78, 4.7, 4.93, 4.22, 4.04, 3.11, 2.52, 1.38, 94.02, 11.35, 12.52, 6.56, 5.97, 4.49, 3.69, 3.58,
        4.23, 3.11, 124.51, 19.01, 24.65, 17.54, 11.4, 16.11, 11.36, 11.43, 7.36, 11.5, 15.12, 14.34, 8.73, 6.06, 5.62,
        6.8, 7.21, 5.25, 5.04, 4.58, 4.52, 4.96, 4.89, 3.19, 2.97]


def _two_spikes(n=60):
    nan = [np.nan] * (n - len(G339))
    return np.array(L339 + nan), np.array(G339 + nan)


def test_a_clip_that_never_shortens_a_gradient_is_no_clip(make_run):
    loss, g = _two_spikes()
    kw = dict(n=60, loss=loss, grad=g, modules=RNN, params=PARAMS, opt="SGD", lr=0.05, grad_bad_from=45)
    # clip_grad_norm_(params, inf): the norm it returns is the norm stepped
    eg = _eg(diagnose(make_run(preclip=g, **kw)))
    assert eg is not None and eg.severity == "error" and "never shortened a gradient" in eg.message
    assert "2 step(s) above 30x" in eg.message  # the second, larger spike counts too
    # the same clip at 1.0: the gradients stepped are short, the explosion was handled
    eg = _eg(diagnose(make_run(preclip=g, **{**kw, "grad": np.minimum(g, 1.0)})))
    assert eg is None or eg.severity != "error"


def test_a_hand_written_recurrence_whose_forward_ran_away(make_run):
    """bench/real 344: an LSTM cell written with nn.Linear and ReLU, looped over 200 steps;
    gradient norms ~0.6 until the forward of step 18 made 3.7e19 and every batch overflowed
    from those weights (the replay's triage: bad-state)."""
    import json

    n = 40
    grad = np.r_[0.6 + 0.2 * np.random.default_rng(4).random(18), [np.nan] * (n - 18)]
    loss = np.r_[np.linspace(1.0, 0.6, 18), [np.inf] * (n - 18)]
    cell = [["", "LoadNet", 0], ["inp", "Linear", 640], ["rec", "Linear", 4096], ["out", "Linear", 33]]
    kw = dict(n=n, loss=loss, grad=grad, modules=cell, params=["rec.weight", "out.weight"], opt="Adam", lr=3e-3,
              grad_bad_from=18)

    def run(calls, verdict="bad-state", absmax=3.7e19):
        folder = make_run(events=[(0, "repeated-modules", "called per time step", {"rec": calls})], **kw)
        b = folder / "bundles" / "step-000018-r0"
        b.mkdir(parents=True)
        (b / "forensics.json").write_text(json.dumps({
            "step": 18, "triage": {"verdict": verdict},
            "location": {"kind": "unstable-op", "culprit": {"op": "aten::mse_loss", "inputs": [{"absmax": absmax}]}}}))
        return _eg(diagnose(folder))

    eg = run(200)
    assert eg is not None and "ran away at step 18" in eg.message and "tanh" in eg.fix
    assert run(1) is None  # a layer called once a step is no recurrence
    assert run(200, verdict="bad-batch") is None  # this batch alone overflows: the data, not the weights
    assert run(200, absmax=50.0) is None  # an op that overflowed on O(1) inputs: the op itself


def test_a_deep_stack_that_broke_within_three_steps(make_run):
    """bench/real 352: twelve plain Conv1d layers, SGD 0.1 with momentum 0.9; the loss went
    0.9 -> 89 -> 6e12 -> NaN at step 3. Three finite steps are enough to see growth: the run
    was not calm, and the gradient's growth is evidence of an explosion."""
    n = 40
    loss = np.r_[[0.895, 89.2, 6.13e12], [np.nan] * (n - 3)]
    grad = np.r_[[17.85, 1507.6, 1.54e14], [np.nan] * (n - 3)]
    deep = [["", "Sequential", 0]] + [[str(i), "Conv1d", 3104] for i in range(12)]
    d = diagnose(make_run(n=n, loss=loss, grad=grad, modules=deep, params=["0.weight", "11.weight"], opt="SGD",
                          lr=0.1, grad_bad_from=3))
    eg = _eg(d)
    assert eg is not None and "grew" in eg.message and "in the 3 step(s)" in eg.message
    assert not any("out of a calm run" in c.message for c in d.causes)


def test_a_clip_at_inf_recorded_by_the_monitor(tmp_path):
    """The monitor writes clip_grad_norm_'s max_norm once (meta ``clip``): at inf no norm is
    above it, whatever tensors the optimizer holds besides the clipped ones."""
    import torch
    from torch import nn

    import traindoc
    from traindoc.rules.causes.exploding_gradient import clip_bites

    for max_norm, bites in ((float("inf"), False), (1e-3, True)):
        model = nn.Linear(4, 1)
        head = nn.Linear(1, 1)
        opt = torch.optim.SGD([*model.parameters(), *head.parameters()], lr=0.01)
        out = tmp_path / f"r{bites}"
        with traindoc.watch(out=out, replay=False):
            for _ in range(5):
                opt.zero_grad()
                head(model(torch.randn(8, 4))).pow(2).mean().backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)  # a subset of the optimizer's
                opt.step()
        run = traindoc.open_run(out)
        assert float(run.meta["clip"]["max_norm"]) == max_norm and clip_bites(run) is bites

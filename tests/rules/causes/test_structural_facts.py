"""Facts about the model or the loss that need no symptom threshold (bench/real 301, 302,
304, 309): a dead layer no gradient crosses, units an all-zero init keeps identical, a loss
summed over thousands of elements under SGD, a classifier that memorised its training rows
while its validation loss never beat chance."""

from __future__ import annotations

import numpy as np

from traindoc.diagnose import diagnose

N = 300
T = np.arange(N)


def _named(d, name):
    return next((c for c in d.causes if c.name == name), None)


def test_a_dead_layer_that_blocks_every_gradient_is_an_error(make_run):
    # hidden biases at -2: layer 3 never activates, the first layer's gradient is exactly 0
    flat = 0.62 - 0.08 * (1 - np.exp(-T / 30))  # the base rate: falls 13 %, then nothing
    act = {"1": {"dead": 0.3, "std": 0.4, "absmax": 2.0}, "3": {"dead": 1.0, "std": 0.0, "absmax": 0.0}}
    zero = {p: (lambda s: 0.0) for p in ("0.weight", "0.bias", "2.weight", "2.bias")}
    d = diagnose(make_run(loss=flat, act=act, per_param=zero))
    assert d.causes[0].name == "dead-relu" and d.causes[0].severity == "error"
    assert "exactly 0 on every step" in d.causes[0].message
    # the same dead share while the first layer still gets a gradient: a risk, not that fact
    d = diagnose(make_run(loss=flat, act=act))
    dr = _named(d, "dead-relu")
    assert dr is None or "exactly 0 on every step" not in dr.message


def test_two_zero_initialised_layers_in_a_row(make_run):
    # every weight at 0 (a notebook habit): the update ratios against weights that grow from
    # 0 are large, and say nothing of the learning rate
    loss = 1.6 + 0.7 * np.exp(-T / 80)
    gains = [["0.weight", "Linear", 0.0], ["2.weight", "Linear", 0.0], ["4.weight", "Linear", 0.0]]
    d = diagnose(make_run(loss=loss, opt="SGD", lr=0.5, init_gain=gains, update=lambda s: 1.5 if s < 3 else 0.4))
    assert d.causes[0].name == "bad-init" and d.causes[0].severity == "error"
    assert "identical copies" in d.causes[0].message
    assert _named(d, "lr-too-high") is None
    # one zero layer among random ones breaks the symmetry by itself (LoRA's B, a zero head)
    gains = [["0.weight", "Linear", 0.58], ["2.weight", "Linear", 0.58], ["4.weight", "Linear", 0.0]]
    bi = _named(diagnose(make_run(loss=loss, opt="SGD", lr=0.5, init_gain=gains)), "bad-init")
    assert bi is None or "identical copies" not in bi.message
    # Fixup-style zeroed residual branches, LoRA's B: half the weights at 0, the rest random
    gains = [["a.weight", "Linear", 0.58], ["b.weight", "Linear", 0.0], ["c.weight", "Linear", 0.58],
             ["d.weight", "Linear", 0.0]]
    bi = _named(diagnose(make_run(loss=loss, opt="SGD", lr=0.5, init_gain=gains)), "bad-init")
    assert bi is None or "identical copies" not in bi.message
    # dropout breaks the tie too (slowly): then a risk at most
    mods = [["", "Sequential", 0], ["0", "Linear", 4160], ["1", "ReLU", 0], ["d", "Dropout", 0], ["2", "Linear", 4160],
            ["3", "ReLU", 0], ["4", "Linear", 650]]
    gains = [["0.weight", "Linear", 0.0], ["2.weight", "Linear", 0.0], ["4.weight", "Linear", 0.0]]
    bi = _named(diagnose(make_run(loss=loss, opt="SGD", lr=0.5, init_gain=gains, modules=mods)), "bad-init")
    assert bi is not None and bi.severity == "warning"


def test_every_weight_filled_with_one_constant(make_run):
    # nn.init.constant_(w, 0.05) on every layer (bench/real 394): the same symmetry as zeros;
    # the hidden layer then dies as one unit, and the dead layer is the init's doing
    flat = 2.9 - 0.6 * (1 - np.exp(-T / 20))
    gains = [["0.weight", "Linear", 0.6], ["2.weight", "Linear", 0.4], ["4.weight", "Linear", 0.4]]
    const = {"constant_weights": ["0.weight", "2.weight", "4.weight"]}
    act = {"1": {"dead": 1.0, "std": 0.0, "absmax": 0.0}, "3": {"dead": 1.0, "std": 0.0, "absmax": 0.0}}
    d = diagnose(make_run(loss=flat, opt="SGD", lr=0.02, init_gain=gains, model_extra=const, act=act))
    assert d.causes[0].name == "bad-init" and "constant fill" in d.causes[0].message
    dr = _named(d, "dead-relu")
    assert dr is None or dr.confidence < d.causes[0].confidence
    # one constant layer among random ones: no symmetry claim
    const = {"constant_weights": ["4.weight"]}
    bi = _named(diagnose(make_run(loss=flat, opt="SGD", lr=0.02, init_gain=gains, model_extra=const, act=act)),
                "bad-init")
    assert bi is None or "constant fill" not in bi.message


def test_a_loss_summed_over_many_elements_under_sgd(make_run):
    blown = np.r_[[1768.0, 3.7e11, 4.7e12], [np.nan] * (N - 3)]
    graph = {"loss_graph": {"step": 0, "reduction": "sum", "terms": 16384, "op": "sum", "factor": 1.0}}
    d = diagnose(make_run(loss=blown, opt="SGD", lr=0.02, meta=graph, grad_bad_from=3))
    lr = _named(d, "loss-reduction")
    assert lr is not None and lr.severity == "error" and "16,384 elements" in lr.message
    # Adam's step does not grow with the gradient's scale; a mean is a mean; a healthy SGD run
    # with a summed loss the rate was tuned for is a choice
    for opt in ("Adam", "AdamW8bit", "FusedAdam"):
        assert _named(diagnose(make_run(loss=blown, opt=opt, lr=1e-3, meta=graph, grad_bad_from=3)),
                      "loss-reduction") is None, opt
    # a slow but finite SGD run (its loss fell by a third): a summed loss tuned for, not a failure
    slow = 1768.0 * (1 - 0.35 * T / N)
    assert _named(diagnose(make_run(loss=slow, opt="SGD", lr=0.02, meta=graph)), "loss-reduction") is None
    mean = {"loss_graph": {"step": 0, "reduction": "mean", "terms": 16384, "op": "mean", "factor": 1.0}}
    assert _named(diagnose(make_run(loss=blown, opt="SGD", lr=0.02, meta=mean, grad_bad_from=3)),
                  "loss-reduction") is None
    assert _named(diagnose(make_run(opt="SGD", lr=0.02, meta=graph)), "loss-reduction") is None
    # divided by the batch (a per-sample sum over 8 pixels): 8x the mean, below the bar
    small = {"loss_graph": {"step": 0, "reduction": "sum", "terms": 128, "op": "sum", "factor": 1 / 16}}
    assert _named(diagnose(make_run(loss=blown, opt="SGD", lr=0.02, meta=small, grad_bad_from=3)),
                  "loss-reduction") is None
    # finite, but the first updates threw it 80x up, and it ended above the untrained model's loss
    # (a fall from the early peak is no learning; bench/real 397, 399)
    rng = np.random.default_rng(3)
    wild = np.r_[[1200.0, 9.6e4], 900 + 600 * np.abs(rng.standard_normal(N - 2))]
    got = _named(diagnose(make_run(loss=wild, opt="SGD", lr=0.05, meta=graph)), "loss-reduction")
    assert got is not None and got.severity == "error" and "step-0 loss" in got.message
    # the same early jump, then a loss far below its start: a summed loss the rate copes with
    calm = np.r_[[1200.0, 9.6e4], 300 * np.exp(-T[2:] / 40) + 20]
    assert _named(diagnose(make_run(loss=calm, opt="SGD", lr=0.05, meta=graph)), "loss-reduction") is None


def test_memorised_while_validation_stays_at_chance(make_run):
    train = 0.7 * np.exp(-T / 15) + 0.002
    val = [0.70, 0.82, 0.84, 0.83, 0.80, 0.78, 0.75, 0.73]  # rose, then weight decay pulls it back
    d = diagnose(make_run(loss=train, eval_loss=val, labels={0: 50, 1: 50}))
    assert d.causes[0].name == "overfitting" and "the chance level or above" in d.causes[0].message
    # a validation loss that went well below chance: it generalised (no rise, nothing)
    good = [0.5, 0.4, 0.35, 0.33, 0.32, 0.31, 0.31, 0.30]
    assert _named(diagnose(make_run(loss=train, eval_loss=good, labels={0: 50, 1: 50})), "overfitting") is None
    # a training loss that stays well above zero: not memorising
    assert _named(diagnose(make_run(loss=0.5 + 0.2 * np.exp(-T / 15), eval_loss=val, labels={0: 50, 1: 50})),
                  "overfitting") is None


def test_a_validation_loss_below_the_training_loss_is_a_lead_at_most(make_run):
    # noisy validation around a lower level than the training loss (dropout, a weighted
    # training loss): its last value above its minimum is no gap
    train = 0.1 + 0.2 * np.exp(-T / 60)
    val = [0.0875, 0.1064, 0.0831, 0.0582, 0.0786, 0.0685]
    o = _named(diagnose(make_run(loss=train, eval_loss=val)), "overfitting")
    assert o is None or o.severity == "warning"
    # the same curve above a training loss that fell far below it: overfitting
    low = 0.01 + 0.2 * np.exp(-T / 60)
    val_up = [0.09, 0.08, 0.07, 0.06, 0.08, 0.10]
    o = _named(diagnose(make_run(loss=low, eval_loss=val_up)), "overfitting")
    assert o is not None and o.severity == "error"


def test_a_summed_loss_whose_steps_killed_a_relu_layer(make_run):
    # bench/real 420: a YOLO-style loss summed over 6272 cells under SGD; the first steps moved
    # the weights by 10-50 % of their norm, a ReLU layer alive at the start was dead by step 42,
    # and the loss fell a third to a plateau: the constant output predicts "no object" everywhere
    graph = {"loss_graph": {"step": 0, "reduction": "sum", "terms": 6272, "op": "sum", "factor": 5.0}}
    slow = 1768.0 * (1 - 0.35 * T / N)
    dead = {"1": {"dead": lambda s: 0.0 if s < 40 else 1.0}}
    upd = lambda s: 0.3 if s < 60 else 0.002  # noqa: E731
    got = _named(diagnose(make_run(loss=slow, opt="SGD", lr=1e-3, meta=graph, act=dead, update=upd)), "loss-reduction")
    assert got is not None and got.severity == "error" and "lost the ReLU layer 1" in got.message
    # the same layer dead from the start (an init's doing) is no sign of the steps
    born_dead = {"1": {"dead": lambda s: 1.0}}
    assert _named(diagnose(make_run(loss=slow, opt="SGD", lr=1e-3, meta=graph, act=born_dead, update=upd)),
                  "loss-reduction") is None

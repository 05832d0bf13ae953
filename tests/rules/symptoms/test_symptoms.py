"""One fixture per symptom rule, healthy twins that must stay silent, and properties."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from traindoc.diagnose import diagnose

from .conftest import healthy_loss, write_run


def names(run):
    return sorted({f.name for f in diagnose(run).symptoms})


def by_name(run, name):
    return [f for f in diagnose(run).symptoms if f.name == name]


def test_healthy_curve_shows_no_symptom(make_run):
    g = np.exp(0.3 * np.random.default_rng(1).standard_normal(300))
    t = 0.02 + 0.002 * np.random.default_rng(2).random(300)
    assert names(make_run({"loss": healthy_loss(), "grad_norm": g, "time/step": t})) == []


def test_loss_spike_found_at_its_step_with_recovery(make_run):
    loss = healthy_loss()
    loss[200] *= 6
    found = by_name(make_run({"loss": loss}), "loss-spike")
    assert len(found) == 1
    f = found[0]
    assert f.location["step"] == 200 and f.severity == "warning"
    assert "back to its trend 1 step(s) later" in f.message
    assert f.evidence[0]["ratio"] > 4


def test_loss_spike_ignores_gradscaler_skipped_steps(make_run):
    loss = healthy_loss()
    loss[[100, 101]] = np.inf
    skipped = np.zeros(300)
    skipped[[100, 101]] = 1
    assert by_name(make_run({"loss": loss, "scaler/skipped": skipped}), "loss-spike") == []


def test_loss_spike_episode_is_one_finding(make_run):
    loss = healthy_loss()
    loss[150:154] *= [4, 9, 7, 3]
    found = by_name(make_run({"loss": loss}), "loss-spike")
    assert [f.location["step"] for f in found] == [151]
    assert found[0].evidence[0]["episode"][0] == 150


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), noise=st.floats(0.01, 0.25), tau=st.floats(10, 400))
def test_property_noise_alone_is_never_a_spike(tmp_path_factory, seed, noise, tau):
    run = write_run(tmp_path_factory.mktemp("r"), {"loss": healthy_loss(noise=noise, tau=tau, seed=seed)})
    assert by_name(run, "loss-spike") == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), noise=st.floats(0.01, 0.1), at=st.integers(60, 290),
       size=st.floats(5.0, 1e4))
def test_property_a_planted_spike_is_found_where_it_is(tmp_path_factory, seed, noise, at, size):
    # 5x over 10 % noise is >= 16 sigma nominal; smaller jumps depend on the noise draw
    loss = healthy_loss(noise=noise, seed=seed)
    loss[at] *= size
    run = write_run(tmp_path_factory.mktemp("r"), {"loss": loss})
    assert [f.location["step"] for f in by_name(run, "loss-spike")] == [at]


def test_plateau_at_chance_level_names_the_label_entropy(make_run):
    rng = np.random.default_rng(0)
    loss = np.log(4) * np.exp(0.02 * rng.standard_normal(300))
    events = [(s, "labels", {"counts": {"0": 25, "1": 25, "2": 25, "3": 25}}) for s in range(0, 300, 50)]
    f = by_name(make_run({"loss": loss}, events), "loss-plateau")
    assert len(f) == 1
    assert "no better than predicting the class frequencies" in f[0].message
    assert "4 classes" in f[0].message


def test_converged_run_is_not_a_plateau(make_run):
    assert by_name(make_run({"loss": healthy_loss(tau=30)}), "loss-plateau") == []


def test_plateau_after_learning_a_little_needs_the_chance_reference(make_run):
    # dropped from 2.3 to 1.0 then flat: not "still high" without a reference...
    loss = healthy_loss(floor=1.0, tau=20, noise=0.03)
    assert by_name(make_run({"loss": loss}), "loss-plateau") == []
    # ...but flat at the entropy of 2 balanced classes (0.693) it is
    loss = healthy_loss(start=0.8, floor=0.69, tau=20, noise=0.01)
    ev = [(0, "labels", {"counts": {"0": 500, "1": 500}})]
    assert len(by_name(make_run({"loss": loss}, ev), "loss-plateau")) == 1


def test_divergence_after_a_low_point(make_run):
    loss = healthy_loss(tau=30, noise=0.05)
    loss[150:] *= np.exp(np.linspace(0, 4, 150))
    f = by_name(make_run({"loss": loss, "lr/0/0": np.geomspace(1e-3, 1e-1, 300)}), "loss-divergence")
    assert len(f) == 1
    assert 140 <= f[0].location["step"] <= 160
    assert f[0].severity == "error"  # it ends above where it started
    assert any(e.get("series") == "lr/0/0" for e in f[0].evidence)


def test_a_late_single_spike_is_not_divergence(make_run):
    loss = healthy_loss()
    loss[-1] *= 50
    assert by_name(make_run({"loss": loss}), "loss-divergence") == []


def test_oscillation_without_trend(make_run):
    rng = np.random.default_rng(3)
    loss = np.where(rng.random(300) < 0.5, 1.0, 4.0) * np.exp(0.1 * rng.standard_normal(300))
    loss[:20] = 2.3
    got = names(make_run({"loss": loss}))
    assert "loss-oscillation" in got and "loss-plateau" not in got


def test_noisy_but_converging_is_not_oscillation(make_run):
    assert by_name(make_run({"loss": healthy_loss(noise=0.3, tau=150)}), "loss-oscillation") == []


def test_grad_spike_names_the_layer(make_run):
    rng = np.random.default_rng(0)
    g = np.exp(0.3 * rng.standard_normal(300))
    g[120] = 80.0
    per = {"grad_norm/fc1.weight": g * 0.9, "grad_norm/fc2.weight": g * 0.1}
    f = by_name(make_run({"loss": healthy_loss(), "grad_norm": g, **per}), "grad-spike")
    assert [x.location["step"] for x in f] == [120]
    assert "fc1.weight" in f[0].message


def test_grad_spike_reads_the_norm_before_clipping(make_run):
    g = np.exp(0.2 * np.random.default_rng(0).standard_normal(300))
    pre = g.copy()
    pre[200] = 500.0
    clipped = np.minimum(g, 1.0)
    f = by_name(make_run({"grad_norm": clipped, "grad_norm_preclip": pre}), "grad-spike")
    assert [x.location["step"] for x in f] == [200]


def test_grad_noise_of_healthy_recurrent_nets_is_not_a_spike(make_run):
    # heavy-tailed but bounded: up to 6x the median, as on healthy GRU runs
    rng = np.random.default_rng(5)
    g = np.exp(0.15 * rng.standard_normal(300))
    g[rng.choice(300, 6, replace=False)] *= 6
    assert by_name(make_run({"grad_norm": g}), "grad-spike") == []


def test_slow_step_split_and_period(make_run):
    rng = np.random.default_rng(0)
    t = 0.02 + 0.002 * rng.random(300)
    d = np.full(300, 0.001)
    for s in range(50, 300, 50):
        t[s] = 0.9
        d[s] = 0.85
    f = by_name(make_run({"time/step": t, "time/data": d}), "slow-step")
    assert len(f) == 1 and f[0].severity == "info"
    assert "every 50 steps" in f[0].message and "waiting on the DataLoader" in f[0].message


def test_slow_step_ignores_small_absolute_jitter_and_eval_steps(make_run):
    rng = np.random.default_rng(0)
    t = 0.005 + 0.001 * rng.random(300)
    t[[40, 90]] = 0.08  # 16x, but 75 ms: machine jitter, not worth a line
    t[201] = 2.0        # the step after an evaluation pass includes it
    run = make_run({"time/step": t, "loss/eval": (np.array([200]), np.array([1.0]))})
    assert by_name(run, "slow-step") == []


def test_nonfinite_grad_norm_on_gradscaler_skipped_steps_is_not_hidden_nan(make_run):
    # a float16 run with a GradScaler: its first step overflows at scale 65536 and is
    # skipped (grad norm NaN, loss finite): the scaler's search, not a NaN the logger hid
    g = np.exp(0.3 * np.random.default_rng(1).standard_normal(300))
    g[[0, 58]] = np.nan
    skipped = np.zeros(300)
    skipped[[0, 58]] = 1
    assert by_name(make_run({"loss": healthy_loss(), "grad_norm": g, "scaler/skipped": skipped}),
                   "loss-nonfinite") == []
    # the same NaN on a step the scaler did not skip is still reported
    g[120] = np.nan
    found = by_name(make_run({"loss": healthy_loss(), "grad_norm": g, "scaler/skipped": skipped}),
                    "loss-nonfinite")
    assert found and found[0].location["step"] == 120


def test_oscillation_in_a_model_with_dropout_says_part_of_it_is_dropout(tmp_path):
    from traindoc.store.writer import RunWriter

    rng = np.random.default_rng(3)
    loss = np.where(rng.random(300) < 0.5, 1.0, 4.0) * np.exp(0.1 * rng.standard_normal(300))
    loss[:20] = 2.3
    msgs = {}
    for drop in (False, True):
        folder = tmp_path / f"r{drop}"
        write_run(folder, {"loss": loss})
        if drop:  # the model summary the monitor writes (module name, class, parameters)
            w = RunWriter(folder)
            w.meta("model/model", {"modules": [["0", "Dropout", 0], ["1", "Linear", 21], ["2", "Linear", 21]]})
            w.close()
        f = [x for x in diagnose(folder).symptoms if x.name == "loss-oscillation"]
        msgs[drop] = f[0].message
    assert "dropout" in msgs[True] and "dropout" not in msgs[False]

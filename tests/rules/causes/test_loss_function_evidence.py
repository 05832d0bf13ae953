"""Causes that need to know which loss function ran and on what (recorded by the monitor)."""

from __future__ import annotations

import torch
from torch import nn

import traindoc


def _train(tmp_path, loss_of, out_dim, y, steps=200):
    torch.manual_seed(0)
    x = torch.randn(len(y), 8)
    x[:, 0] += y.float()  # learnable signal
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, out_dim))
    opt = torch.optim.Adam(model.parameters(), 1e-2)
    with traindoc.watch(out=tmp_path / "r"):
        for s in range(steps):
            i = torch.randint(0, len(y), (64,), generator=torch.Generator().manual_seed(s))
            loss = loss_of(model(x[i]), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(tmp_path / "r")


def test_mse_on_unordered_class_indices_is_a_loss_mismatch(tmp_path):
    g = torch.Generator().manual_seed(1)
    y = torch.randint(0, 5, (2000,), generator=g)
    x_noise = torch.randint(0, 5, (2000,), generator=g)  # half the labels carry no signal
    y = torch.where(torch.rand(2000, generator=g) < 0.5, y, x_noise)
    d = _train(tmp_path, lambda out, t: nn.functional.mse_loss(out.squeeze(1), t.float()), 1, y)
    names = [c.name for c in d.causes]
    assert names and names[0] == "loss-mismatch", [(c.name, c.message) for c in d.causes]
    assert "integer targets 0..4" in d.causes[0].message


def test_mse_on_real_valued_targets_is_not(tmp_path):
    y = torch.randn(2000) * 2
    d = _train(tmp_path, lambda out, t: nn.functional.mse_loss(out.squeeze(1), t), 1, y)
    assert "loss-mismatch" not in [c.name for c in d.causes]


def test_mse_between_softmax_and_one_hot_is_a_loss_mismatch(tmp_path):
    g = torch.Generator().manual_seed(4)
    y = torch.randint(0, 4, (2000,), generator=g)
    # functional softmax in the loss (no nn.Softmax module to see): the row sums tell
    d = _train(tmp_path, lambda out, t: nn.functional.mse_loss(out.softmax(-1), nn.functional.one_hot(t, 4).float()),
               4, y)
    hit = [c for c in d.causes if c.name == "loss-mismatch"]
    assert hit and "softmax probabilities" in hit[0].message, [(c.name, c.message) for c in d.causes]


def test_mse_onto_soft_targets_is_not(tmp_path):
    # distillation-style: probabilities regressed onto other probabilities, not 0/1 targets
    g = torch.Generator().manual_seed(5)
    y = torch.randint(0, 4, (2000,), generator=g)
    soft = nn.functional.one_hot(y, 4).float() * 0.7 + 0.075
    d = _train(tmp_path, lambda out, t: nn.functional.mse_loss(out.softmax(-1), soft[t]), 4, y)
    assert "loss-mismatch" not in [c.name for c in d.causes], [(c.name, c.message) for c in d.causes]


def test_rare_positives_under_bce_are_seen_as_class_imbalance(tmp_path):
    g = torch.Generator().manual_seed(2)
    y = (torch.rand(4000, generator=g) < 0.03).float()
    d = _train(tmp_path, lambda out, t: nn.functional.binary_cross_entropy_with_logits(out.squeeze(1), t), 1, y)
    assert "class-imbalance" in [c.name for c in d.causes], d.cannot_tell


def _multilabel(tmp_path, signal, steps=300):
    """40 tags, each positive on ~1 % of 4 000 rows; ``signal``: how strongly the tag shows
    in the inputs (0: it does not, the model can only learn each tag's frequency)."""
    g = torch.Generator().manual_seed(3)
    y = (torch.rand(4000, 40, generator=g) < 0.01).float()
    x = torch.randn(4000, 40, generator=g) + signal * y
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 40))
    opt = torch.optim.Adam(model.parameters(), 3e-3)
    with traindoc.watch(out=tmp_path / "r"):
        for s in range(steps):
            i = torch.randint(0, 4000, (128,), generator=torch.Generator().manual_seed(s))
            loss = nn.functional.binary_cross_entropy_with_logits(model(x[i]), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    (ev,) = [e["data"] for e in run.events() if e["kind"] == "labels-multi"]
    return ev, traindoc.diagnose(run)


def test_rare_tags_learned_only_as_frequencies_are_class_imbalance(tmp_path):
    ev, d = _multilabel(tmp_path, signal=0.0)
    assert ev["tags"] == 40 and 0.007 < ev["mean_rate"] < 0.013
    assert d.causes and d.causes[0].name == "class-imbalance", [(c.name, c.message) for c in d.causes]
    assert "every tag absent" in d.causes[0].message


def test_rare_tags_the_model_learns_are_not(tmp_path):
    # (at 300 steps this model still marks 0.01 % of the elements positive against 1 % true
    # tags, a recall of 1 %: class-imbalance then, rightly; by 1 500 steps its recall is 94 %)
    ev, d = _multilabel(tmp_path, signal=4.0, steps=1500)
    assert ev["tags"] == 40
    assert "class-imbalance" not in [c.name for c in d.causes], [(c.name, c.message) for c in d.causes]


class _Branches(nn.Module):
    """Parallel conv branches kept in a plain list (``plain``) or an nn.ModuleList; an
    optional frozen teacher kept out of the module tree, called under no_grad."""

    def __init__(self, plain, teacher=False):
        super().__init__()
        convs = [nn.Conv1d(8, 16, k) for k in (3, 4, 5)]
        self.convs = convs if plain else nn.ModuleList(convs)
        self.fc = nn.Linear(48, 2)
        self._teacher = [nn.Linear(30, 30)] if teacher else []  # hidden from parameters() on purpose

    def forward(self, x):
        if self._teacher:
            with torch.no_grad():
                x = x + 0 * self._teacher[0](x)
        return self.fc(torch.cat([c(x).amax(-1) for c in self.convs], 1))


def _branches(tmp_path, plain, teacher=False):
    torch.manual_seed(0)
    m = _Branches(plain, teacher)
    opt = torch.optim.Adam(m.parameters(), 1e-3)
    x = torch.randn(256, 8, 30)
    y = (x[:, 0].mean(1) > 0).long()
    with traindoc.watch(out=tmp_path / "r"):
        for s in range(60):
            i = torch.randint(0, 256, (32,), generator=torch.Generator().manual_seed(s))
            loss = nn.functional.cross_entropy(m(x[i]), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    run = traindoc.open_run(tmp_path / "r")
    return [e["data"] for e in run.events() if e["kind"] == "unregistered-module"], traindoc.diagnose(run)


def test_layers_in_a_python_list_are_params_not_updated(tmp_path):
    ev, d = _branches(tmp_path, plain=True)
    assert sorted(e["values"] for e in ev) == [400, 528, 656]
    assert d.causes[0].name == "params-not-updated" and "nn.ModuleList" in d.causes[0].message


def test_a_module_list_or_a_hidden_frozen_teacher_is_not(tmp_path):
    ev, d = _branches(tmp_path, plain=False, teacher=True)
    assert ev == [] and "params-not-updated" not in [c.name for c in d.causes]


def _logits_run(tmp_path, head):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), *head)
    opt = torch.optim.Adam(model.parameters(), 1e-2)
    x = torch.randn(1000, 8)
    y = (x[:, :2].sum(1) > 0).long() + 2 * (x[:, 2] > 0).long()
    with traindoc.watch(out=tmp_path / "r"):
        for s in range(80):
            i = torch.randint(0, 1000, (64,), generator=torch.Generator().manual_seed(s))
            loss = nn.functional.cross_entropy(model(x[i]), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(tmp_path / "r")


def test_a_relu_on_the_logits_is_a_loss_mismatch(tmp_path):
    d = _logits_run(tmp_path, [nn.Linear(32, 4), nn.ReLU()])
    assert d.causes and d.causes[0].name == "loss-mismatch" and "ReLU after the last layer" in d.causes[0].message


def test_raw_or_zero_initialised_logits_are_not(tmp_path):
    assert "loss-mismatch" not in [c.name for c in _logits_run(tmp_path / "a", [nn.Linear(32, 4)]).causes]
    head = nn.Linear(32, 4)
    nn.init.zeros_(head.weight)
    nn.init.zeros_(head.bias)  # a zero-initialised head (timm, DeiT): every logit exactly 0 at first
    assert "loss-mismatch" not in [c.name for c in _logits_run(tmp_path / "b", [head]).causes]


def test_rare_positives_under_a_weighted_loss_are_not_class_imbalance(tmp_path):
    """pos_weight= (or weight=) is the fix: the rule stays silent (bench/real 104's fixed version)."""
    g = torch.Generator().manual_seed(2)
    y = (torch.rand(4000, generator=g) < 0.03).float()
    pw = torch.tensor(30.0)
    d = _train(tmp_path, lambda out, t: nn.functional.binary_cross_entropy_with_logits(out.squeeze(1), t, pos_weight=pw),
               1, y)
    assert "class-imbalance" not in [c.name for c in d.causes]
    assert traindoc.open_run(tmp_path / "r").meta["loss_function/binary_cross_entropy_with_logits"]["weighted"]


def _idle_optimizer_run(tmp_path, by_hand):
    torch.manual_seed(0)
    x = torch.randn(512, 8)
    y = (x[:, 0] > 0).long()
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = torch.optim.Adam(model.parameters(), 1e-2)  # built, then never stepped
    with traindoc.watch(out=tmp_path / "r"):
        for s in range(300):
            i = torch.randint(0, 512, (32,), generator=torch.Generator().manual_seed(s))
            opt.zero_grad()
            nn.functional.cross_entropy(model(x[i]), y[i]).backward()
            if by_hand:  # the update written by hand: the idle optimizer is harmless
                with torch.no_grad():
                    for p in model.parameters():
                        p -= 0.1 * p.grad
    return traindoc.diagnose(tmp_path / "r")


def test_an_optimizer_that_never_steps_is_params_not_updated(tmp_path):
    d = _idle_optimizer_run(tmp_path, by_hand=False)
    assert d.causes and d.causes[0].name == "params-not-updated" and "step() was never called" in d.causes[0].message


def test_an_idle_optimizer_next_to_a_hand_written_update_is_not(tmp_path):
    d = _idle_optimizer_run(tmp_path, by_hand=True)
    assert "params-not-updated" not in [c.name for c in d.causes], [(c.name, c.message) for c in d.causes]


def _regression_run(tmp_path, head, shift=0.0):
    torch.manual_seed(0)
    x = torch.randn(2000, 8)
    y = x[:, :1] - 0.5 * x[:, 1:2] + shift  # standardised: about half the targets below 0
    model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), *head)
    opt = torch.optim.Adam(model.parameters(), 1e-2)
    with traindoc.watch(out=tmp_path / "r"):
        for s in range(150):
            i = torch.randint(0, 2000, (64,), generator=torch.Generator().manual_seed(s))
            loss = nn.functional.smooth_l1_loss(model(x[i]), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.diagnose(tmp_path / "r")


def test_a_relu_on_a_regression_head_with_negative_targets_is_dead_relu(tmp_path):
    d = _regression_run(tmp_path, [nn.Linear(32, 1), nn.ReLU()])
    assert d.causes and d.causes[0].name == "dead-relu", [(c.name, c.message) for c in d.causes]
    assert "ReLU (or a clamp at 0) after the last layer" in d.causes[0].message


def test_a_plain_regression_head_or_positive_targets_are_not(tmp_path):
    names = [c.name for c in _regression_run(tmp_path / "a", [nn.Linear(32, 1)]).causes]
    assert "dead-relu" not in names
    # counts or prices behind a ReLU (targets never negative): as meant
    names = [c.name for c in _regression_run(tmp_path / "b", [nn.Linear(32, 1), nn.ReLU()], shift=10.0).causes]
    assert "dead-relu" not in names


def _two_phase_run(tmp_path, clear_second):
    torch.manual_seed(0)
    x = torch.randn(512, 8)
    y = x[:, :1] * 2
    model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1))
    warm = torch.optim.SGD(model.parameters(), lr=0.01)
    with traindoc.watch(out=tmp_path / "r", sample_every=5):
        for s in range(60):  # phase 1: cleared every step
            i = torch.randint(0, 512, (32,), generator=torch.Generator().manual_seed(s))
            warm.zero_grad()
            nn.functional.mse_loss(model(x[i]), y[i]).backward()
            warm.step()
        tune = torch.optim.Adam(model[2].parameters(), lr=1e-3)  # phase 2: the head, another optimizer
        for s in range(60):
            i = torch.randint(0, 512, (32,), generator=torch.Generator().manual_seed(100 + s))
            if clear_second:
                tune.zero_grad()
            nn.functional.mse_loss(model(x[i]), y[i]).backward()
            tune.step()
    return traindoc.diagnose(tmp_path / "r")


def test_uncleared_gradients_in_a_second_phase_with_its_own_optimizer(tmp_path):
    d = _two_phase_run(tmp_path, clear_second=False)
    assert d.causes and d.causes[0].name == "missing-zero-grad", [(c.name, c.message) for c in d.causes]
    assert d.run.meta["steps"] == 119
    assert "missing-zero-grad" not in [c.name for c in _two_phase_run(tmp_path / "b", clear_second=True).causes]


def test_measured_clearing_vetoes_code_evidence_of_missing_zero_grad(make_run):
    from traindoc.rules.evidence.policy import ruled_out

    assert ruled_out(traindoc.open_run(make_run(carried=0.0))) == {"missing-zero-grad"}
    assert not ruled_out(traindoc.open_run(make_run(carried=1.0)))

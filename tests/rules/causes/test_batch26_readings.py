"""Readings added after bench/real batch 26 and NYU-DLSP20's notebooks, each with its near miss:
a softmax over one output unit (constant 1.0, loss-mismatch); conflicts that are label noise
(each group with a clear majority: a warning); a first-layer weight without gradient beside
its own bias with one (zero input where the output is read, not vanishing); zero 1-D raw
tensors (a BatchNorm's shift) are no zero init; an unclipped recurrent net whose gradient
spikes but whose run came through is a warning."""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

import traindoc
from traindoc.diagnose import diagnose


def _ce(out, t):  # looked up at the call: watch() patches it after a reference would be taken
    return nn.functional.cross_entropy(out, t)


def _cause(d, name):
    return next((c for c in d.causes if c.name == name), None)


def _fit(tmp_path, model, x, y, loss, steps=120, lr=1e-2, opt=torch.optim.Adam):
    torch.manual_seed(0)
    o = opt(model.parameters(), lr=lr)
    with traindoc.watch(out=tmp_path, replay=False, sample_every=5):
        for s in range(steps):
            i = torch.randint(0, len(x), (64,), generator=torch.Generator().manual_seed(s))
            out = loss(model(x[i]), y[i])
            o.zero_grad()
            out.backward()
            o.step()
    return diagnose(tmp_path)


def _bits(flip=0.05, n=4000):
    g = torch.Generator().manual_seed(0)
    x = torch.randint(0, 2, (n, 3), generator=g).float()
    y = (x[:, 0] != x[:, 2]).float()
    y = torch.where(torch.rand(n, generator=g) < flip, 1 - y, y)
    return x, y


def test_a_softmax_over_one_output_unit_is_a_loss_mismatch(tmp_path):
    x, y = _bits()
    torch.manual_seed(0)
    one = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1), nn.Softmax(dim=1))
    d = _fit(tmp_path / "one", one, x, y, lambda p, t: nn.functional.binary_cross_entropy(p.squeeze(1), t))
    lm = _cause(d, "loss-mismatch")
    assert d.causes[0] is lm and lm.severity == "error" and "exactly 1.0" in lm.message
    # a sigmoid on the one unit (the fix) learns the XOR: no such finding
    sig = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1), nn.Sigmoid())
    d = _fit(tmp_path / "sig", sig, x, y, lambda p, t: nn.functional.binary_cross_entropy(p.squeeze(1), t))
    assert _cause(d, "loss-mismatch") is None


def test_conflicts_with_a_clear_majority_are_label_noise_a_warning(tmp_path):
    x, y = _bits(flip=0.05)  # 8 distinct inputs, each label flipped on 5 % of its rows
    mlp = lambda: nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2))  # noqa: E731
    d = _fit(tmp_path / "noise", mlp(), x, y.long(), _ce, steps=200)
    lc = _cause(d, "label-conflict")
    assert lc is not None and lc.severity == "warning" and "clear majority" in lc.message
    x2, y2 = _bits(flip=0.25)  # a quarter disagreeing: no clear majority, an error as before
    d = _fit(tmp_path / "split", mlp(), x2, y2.long(), _ce, steps=200)
    lc = _cause(d, "label-conflict")
    assert lc is not None and lc.severity == "error" and "clear majority" not in lc.message


class _LastStep(nn.Module):
    """Causal convolutions reading the last time step of zero-padded sequences (a TCN)."""

    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList(nn.Conv1d(1 if i == 0 else 8, 8, 2) for i in range(5))
        self.head = nn.Linear(8, 4)

    def forward(self, x):
        h = x.unsqueeze(1)
        for c in self.convs:
            h = torch.tanh(c(nn.functional.pad(h, (1, 0))))
        return self.head(h[:, :, -1])


def test_a_weight_without_gradient_beside_its_bias_is_zero_input_not_vanishing(tmp_path):
    g = torch.Generator().manual_seed(0)
    y = torch.randint(0, 4, (1000,), generator=g)
    x = torch.zeros(1000, 300)  # 40 samples of signal, then 260 zeros of padding
    x[:, :40] = torch.sin(torch.arange(40.0) * (0.1 + 0.1 * y[:, None])) + 0.1 * torch.randn(1000, 40, generator=g)
    torch.manual_seed(0)
    d = _fit(tmp_path / "pad", _LastStep(), x, y, _ce, steps=60)
    vg = _cause(d, "vanishing-gradient")
    assert vg is not None and vg.severity == "warning" and "its bias gets" in vg.message


def test_zero_raw_one_dimensional_tensors_are_no_zero_init(make_run):
    shapes = [(14,), (14,), (32, 14), (32,)]
    params = [f"opt0.group0.param{i}" for i in range(4)]
    d = diagnose(make_run(shapes=shapes, params=params, zero_params=("opt0.group0.param1",)))
    assert _cause(d, "bad-init") is None  # a BatchNorm's shift starts at 0
    d = diagnose(make_run(shapes=shapes, params=params, zero_params=("opt0.group0.param2",)))
    bi = _cause(d, "bad-init")
    assert bi is not None and "opt0.group0.param2" in bi.message


RNN = [["", "Tagger", 0], ["lstm", "LSTM", 352], ["out", "Linear", 36]]


def test_gradient_spikes_in_a_run_that_came_through_are_a_warning(make_run):
    n = 600
    rng = np.random.default_rng(0)
    g = 2.0 * np.exp(0.3 * rng.standard_normal(n))
    g[[200, 320, 450, 520]] = [300.0, 250.0, 400.0, 280.0]
    good = 1.4 * np.exp(-np.arange(n) / 80) + 0.03 + 0.01 * rng.standard_normal(n)
    kw = dict(grad=g, modules=RNN, params=["lstm.weight_hh_l0", "out.weight"], opt="RMSprop", lr=1e-3, n=n)
    eg = _cause(diagnose(make_run(loss=good, **kw)), "exploding-gradient")
    assert eg is not None and eg.severity == "warning" and "came through" in eg.message
    bad = 1.4 - 0.4 * np.arange(n) / n + 0.05 * rng.standard_normal(n)  # still at 1.0: it did not
    eg = _cause(diagnose(make_run(loss=bad, **kw)), "exploding-gradient")
    assert eg is not None and eg.severity == "error" and "came through" not in eg.message


def test_an_output_tanh_under_targets_beyond_its_range_is_saturated_even_as_the_loss_falls(tmp_path):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(2000, 6, generator=g)
    y = (2.5 + x[:, 0] + 0.5 * x[:, 1]).round().clamp(1, 4)  # ratings 1-4
    mse = lambda p, t: nn.functional.mse_loss(p.squeeze(1), t)  # noqa: E731
    torch.manual_seed(0)
    tanh = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1), nn.Tanh())
    d = _fit(tmp_path / "tanh", tanh, x, y, mse, steps=150)
    sa = _cause(d, "saturated-activation")
    assert d.causes[0] is sa and sa.severity == "error" and "beyond the activation's range" in sa.message
    # the same targets scaled into the range (y / 4): nothing pinned, nothing to say
    torch.manual_seed(0)
    tanh = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1), nn.Tanh())
    d = _fit(tmp_path / "scaled", tanh, x, y / 4, mse, steps=150)
    assert _cause(d, "saturated-activation") is None

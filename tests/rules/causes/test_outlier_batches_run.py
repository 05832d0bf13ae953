"""data-outlier from outsized batches: the monitor records each step's largest input
(``in/absmax``, every step), and a run whose gradient spikes begin on the batches that hold
a few rows in the wrong unit is told apart from one whose learning rate throws it."""

import tempfile

import torch
import torch.nn.functional as F
from torch import nn

import traindoc
from traindoc.rules.evidence.inputs import outlier_batches


def _train(out, scale=40.0, lr=0.01, seed=0, steps=300):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(6000, 12, generator=g)
    y = X @ torch.randn(12, generator=g) / 3 + 0.1 * torch.randn(6000, generator=g)
    bad = torch.randperm(6000, generator=g)[:60]
    X[bad, 3] *= scale  # one sensor logged in the wrong unit on 1 % of the rows
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    with traindoc.watch(out=out, replay=False):
        for _ in range(steps):
            i = torch.randint(0, 6000, (64,), generator=g)
            loss = F.mse_loss(model(X[i]).squeeze(1), y[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return traindoc.open_run(out), traindoc.diagnose(out).causes


def test_spikes_that_begin_on_outsized_batches_name_the_outliers(tmp_path):
    run, causes = _train(tmp_path / "r")
    d = outlier_batches(run)
    assert d is not None and d["onsets"][0] in d["heavy"] and d["chance"] < 0.2
    top = causes[0]
    assert top.name == "data-outlier" and "gradient spikes began on batches holding an extreme input" in top.message
    assert top.location["step"] == d["onsets"][0]
    # the learning rate and the gradient defer to it
    assert all(c.severity == "warning" for c in causes if c.name in ("lr-too-high", "exploding-gradient"))


def test_a_learning_rate_that_throws_clean_data_is_not_it(tmp_path):
    run, causes = _train(tmp_path / "r", scale=1.0, lr=0.5)
    assert outlier_batches(run) is None
    assert causes[0].name == "lr-too-high"


def test_outlier_rows_that_a_gentle_run_absorbs_are_a_risk_not_a_failure(tmp_path):
    # the rows still jolt the gradient (it scales with the input), but the run trains on
    run, causes = _train(tmp_path / "r", lr=1e-3)
    assert outlier_batches(run) is not None
    assert not any(c.severity == "error" for c in causes), [(c.name, c.severity) for c in causes]

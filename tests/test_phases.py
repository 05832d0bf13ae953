"""Phases: a script that trains several models one after another is diagnosed phase by phase
(traindoc/phases.py); an optimizer rebuilt for the same model is not a new phase."""

import torch
from torch import nn

import traindoc
from traindoc.phases import WHOLE, PhaseView, phases


def _train(model, opt, x, y, n):
    for _ in range(n):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()


def _data():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(64, 8, generator=g)
    return x, (x[:, 0] > 0).long()


def test_two_models_in_one_script_are_two_phases_and_the_restart_is_no_spike(tmp_path):
    torch.manual_seed(0)
    x, y = _data()
    with traindoc.watch(out=tmp_path / "r", sample_every=1):
        for _ in range(2):  # a model, then a fresh one (a tutorial comparing two, k folds)
            m = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
            _train(m, torch.optim.Adam(m.parameters(), lr=1e-2), x, y, 150)
    run = traindoc.open_run(tmp_path / "r")
    spans = phases(run)
    assert len(spans) == 2 and 145 <= spans[1][0] <= 152
    first = PhaseView(run, *spans[0]).series("loss")
    assert first.steps.max() < spans[1][0] and len(first) >= 140
    d = traindoc.diagnose(run)
    # read as one series, the second model's first loss (0.65) is a spike over the first's last
    # (0.005), its first gradients one over the first's (loss-spike and grad-spike at step 150)
    assert not [s for s in d.symptoms if s.name in ("loss-spike", "grad-spike")
                and abs(s.location["step"] - spans[1][0]) <= 3]
    assert all(f.location.get("phase") in (1, 2) and f.message.startswith("phase ") for f in d.symptoms)


def test_an_optimizer_rebuilt_for_the_same_model_is_one_phase(tmp_path):
    torch.manual_seed(0)
    x, y = _data()
    m = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
    with traindoc.watch(out=tmp_path / "r", sample_every=1):
        kept = []  # kept alive, so that each new one takes the clock over (a freed one's id is reused)
        for _ in range(3):  # one optimizer per epoch: the loss goes on where it was
            kept.append(torch.optim.SGD(m.parameters(), lr=0.1))
            _train(m, kept[-1], x, y, 60)
    run = traindoc.open_run(tmp_path / "r")
    assert [e for e in run.events() if e["kind"] == "step-clock"]  # the clock did change hands
    assert phases(run) == [WHOLE]


def test_a_cause_read_in_several_phases_is_one_finding_naming_the_others():
    from traindoc.diagnose import _one_per_cause
    from traindoc.findings import Finding

    def cause(name, phase, conf):
        return Finding(name, "warning", f"{name} in {phase}", location={"phase": phase} if phase else {},
                       confidence=conf)

    got = _one_per_cause([cause("dead-relu", 2, 0.2), cause("lr-too-high", 1, 0.3), cause("dead-relu", 11, 0.45),
                          cause("dead-relu", None, 0.1)])
    names = [(f.name, f.location.get("phase")) for f in got]
    assert names == [("lr-too-high", 1), ("dead-relu", 11), ("dead-relu", None)]  # a whole-run one stays apart
    assert got[1].message.endswith("; the same in phase 2 (20%)")

"""The script's lint findings as evidence for a run's causes (traindoc.code_evidence)."""

import hashlib
from types import SimpleNamespace

from traindoc.code_evidence import corroborate, script_findings
from traindoc.findings import Finding

SCRIPT = '''import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in [(torch.randn(8, 4), torch.randint(0, 3, (8,)))]:
    opt.zero_grad()
    loss = F.cross_entropy(F.softmax(model(x), dim=1), y)
    loss.backward()
    opt.step()
'''


def run_of(tmp_path, text=SCRIPT, sha=None):
    p = tmp_path / "train.py"
    p.write_text(text)
    digest = sha or hashlib.sha256(text.encode()).hexdigest()
    return SimpleNamespace(meta={"script": {"script": "train.py", "cwd": str(tmp_path), "module": False,
                                            "sha256": digest}})


PLATEAU = [Finding("loss-plateau", "warning", "flat")]
NAN = [Finding("loss-nonfinite", "error", "nan")]


def test_a_strong_pattern_behind_the_runs_symptom_becomes_a_cause_on_its_line(tmp_path):
    out = corroborate(run_of(tmp_path), [], PLATEAU)
    assert [f.name for f in out] == ["loss-mismatch"]
    f = out[0]
    assert f.location["line"] == 9 and f.location["file"].endswith("train.py")
    assert f.confidence == 0.7 and f.severity == "error"
    assert "softmax-before-cross-entropy" in f.message and f.evidence[0]["lint"] == "softmax-before-cross-entropy"


def test_the_pattern_must_produce_the_symptom_the_run_shows(tmp_path):
    # a softmax before cross-entropy slows learning; it does not make a NaN
    assert corroborate(run_of(tmp_path), [], NAN) == []
    assert corroborate(run_of(tmp_path), [], []) == []  # no symptom: lint's business, not the diagnosis'


def test_a_script_edited_since_the_run_is_not_read(tmp_path):
    assert corroborate(run_of(tmp_path, sha="0" * 64), [], PLATEAU) == []
    assert script_findings(run_of(tmp_path, sha="0" * 64))[1].endswith("changed since the run")


def test_a_cause_the_series_named_gains_the_line_and_confidence(tmp_path):
    named = Finding.from_confidence("loss-mismatch", 0.4, "from the series", location={"step": 3})
    other = Finding.from_confidence("lr-too-low", 0.45, "slow")
    out = corroborate(run_of(tmp_path), [named, other], PLATEAU)
    got = {f.name: f for f in out}
    assert set(got) == {"loss-mismatch", "lr-too-low"}
    assert abs(got["loss-mismatch"].confidence - (1 - 0.6 * 0.3)) < 1e-9
    assert got["loss-mismatch"].location == {"step": 3, "file": str(tmp_path / "train.py"), "line": 9}
    assert got["lr-too-low"].confidence == 0.45


def test_a_weak_pattern_only_corroborates(tmp_path):
    text = SCRIPT.replace("F.cross_entropy(F.softmax(model(x), dim=1), y)",
                          "-torch.log(1 - torch.softmax(model(x), dim=1)).mean()")
    lint, why = script_findings(run_of(tmp_path, text))
    assert why is None and {f.name for f in lint} == {"unguarded-zero"}
    assert corroborate(run_of(tmp_path, text), [], NAN) == []
    op = Finding.from_confidence("unstable-op", 0.4, "nan out of a calm run")
    out = corroborate(run_of(tmp_path, text), [op], NAN)
    assert out[0].confidence > 0.4 and out[0].evidence[-1]["lint"] == "unguarded-zero"


def test_no_script_recorded(tmp_path):
    assert corroborate(SimpleNamespace(meta={}), [], PLATEAU) == []
    gone = run_of(tmp_path)
    (tmp_path / "train.py").unlink()
    assert corroborate(gone, [], PLATEAU) == []


def test_float16_autocast_without_a_scaler_corroborates_a_stall_not_a_rising_loss(tmp_path):
    text = SCRIPT.replace("    loss = F.cross_entropy(F.softmax(model(x), dim=1), y)\n",
                          "    with torch.autocast('cuda', dtype=torch.float16):\n"
                          "        loss = F.cross_entropy(model(x), y)\n")
    lint, _ = script_findings(run_of(tmp_path, text))
    assert "unscaled-fp16" in {f.name for f in lint}
    under = Finding.from_confidence("fp16-underflow", 0.45, "autocast float16, no GradScaler")
    rising = [Finding("loss-divergence", "warning", "rose")]
    assert corroborate(run_of(tmp_path, text), [under], rising)[0].confidence == 0.45
    assert corroborate(run_of(tmp_path, text), [under], PLATEAU)[0].confidence > 0.45


def test_two_hits_of_one_rule_on_one_line_are_one_piece_of_evidence(tmp_path):
    """bench/real 456: `(X_train - mu) / sd, (X_test - mu) / sd` on one line gave the same
    evidence entry twice."""
    text = SCRIPT.replace("loss = F.cross_entropy(F.softmax(model(x), dim=1), y)",
                          "loss = F.cross_entropy(F.softmax(model(x), dim=1), y) + F.cross_entropy(F.softmax(model(x), dim=1), y)")
    out = corroborate(run_of(tmp_path, text), [], PLATEAU)
    assert [f.name for f in out] == ["loss-mismatch"]
    assert len([e for e in out[0].evidence if e.get("lint")]) == 1

"""The real-fault benchmark's parsers (bench/real/gate.py, bench/real/score.py): fast, no training."""
import importlib.util
import math
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name):
    spec = importlib.util.spec_from_file_location(f"real_{name}", ROOT / "bench" / "real" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


gate = _load("gate")
score = _load("score")


def test_parse_result_takes_the_last_line():
    out = "epoch 0\nfinal_loss=1.5 acc=0.2\nnoise\nfinal_loss=nan acc=0.1000\n"
    loss, acc = gate.parse_result(out)
    assert math.isnan(loss) and acc == pytest.approx(0.1)
    assert gate.parse_result("no result here") is None


@pytest.mark.parametrize("kind,arg,loss,acc,ref,want", [
    ("nonfinite", None, float("nan"), 0.0, None, True),
    ("nonfinite", None, 0.3, 0.0, None, False),
    ("loss-above", 1.0, 2.0, 0.0, None, True),
    ("loss-above", 1.0, float("inf"), 0.0, None, True),
    ("loss-below", 0.5, 0.01, 0.0, None, True),
    ("loss-below", 0.5, float("nan"), 0.0, None, False),
    ("acc-below", 0.6, 0.1, 0.2, None, True),
    ("acc-below", 0.6, 0.1, 0.9, None, False),
    ("final-loss-ratio", 2.0, 1.0, 0.0, 0.4, True),
    ("final-loss-ratio", 2.0, 0.5, 0.0, 0.4, False),
    ("final-loss-ratio", 2.0, float("nan"), 0.0, 0.4, True),
])
def test_shows(kind, arg, loss, acc, ref, want):
    assert gate.shows(kind, arg, loss, acc, ref_loss=ref) is want


def test_symptom_and_expect_lines(tmp_path):
    f = tmp_path / "buggy.py"
    f.write_text('"""Title.\n\nexpect: lr-too-high\nsymptom: final-loss-ratio 1.5\n"""\nprint(1)\n')
    assert gate.symptom(f) == ("final-loss-ratio", 1.5)
    assert score.expected(f) == "lr-too-high"
    f.write_text('"""Title.\n\nexpect: lr-too-high\nsymptom: weird 2\n"""\n')
    with pytest.raises(SystemExit):
        gate.symptom(f)


def test_every_program_declares_a_known_cause_and_symptom():
    causes = {"data-nonfinite", "data-outlier", "data-unnormalized", "label-misaligned", "class-imbalance",
              "label-conflict", "data-duplicates", "data-leakage", "constant-feature", "target-leakage",
              "unstable-op", "fp16-overflow", "fp16-underflow", "loss-mismatch", "loss-reduction",
              "lr-too-high", "lr-too-low", "missing-zero-grad", "params-not-updated", "bad-init",
              "vanishing-gradient", "exploding-gradient", "dead-relu", "saturated-activation",
              "overfitting", "dataloader-bottleneck"}
    progs = score.programs()
    assert len(progs) >= 40
    for p in progs:
        assert score.expected(p / "buggy.py") in causes, p.name
        gate.symptom(p / "buggy.py")
        assert "http" in score.docstring(p / "buggy.py"), p.name


def test_halves_are_a_fixed_rule():
    assert score.half("01_manual_xent_log_softmax") == score.half("01_manual_xent_log_softmax")
    halves = {score.half(p.name) for p in score.programs()}
    assert {"calibration", "held-out"} <= halves and all(h.startswith("batch ") for h in halves - {"calibration", "held-out"})
    # a later batch is its own set, named in its docstring, never split by the hash
    assert score.half("43_acos_angular_loss_clamp") == "batch 2"

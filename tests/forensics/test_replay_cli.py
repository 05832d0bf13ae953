"""`traindoc replay RUN` picks the bundle `traindoc run` replays; a replay that does not
reproduce says how the script ran and why that can happen."""

import io
import json

from traindoc.forensics.cli import _pick, render


def _bundle(run, step, trig):
    p = run / "bundles" / f"step-{step:06d}-r0"
    p.mkdir(parents=True)
    (p / "meta.json").write_text(json.dumps({"trigger": trig}))
    return p


def test_run_folder_replays_the_nonfinite_step_not_an_earlier_spike(tmp_path):
    _bundle(tmp_path, 10, {"kind": "loss-spike"})
    nan = _bundle(tmp_path, 40, {"kind": "loss-nonfinite"})
    _bundle(tmp_path, 41, {"kind": "ended-mid-step", "status": "exited"})
    assert _pick(str(tmp_path)) == nan


def test_run_folder_without_a_nonfinite_step_replays_the_first_spike(tmp_path):
    first = _bundle(tmp_path, 10, {"kind": "grad-spike"})
    _bundle(tmp_path, 30, {"kind": "loss-spike"})
    _bundle(tmp_path, 31, {"kind": "ended-mid-step", "status": "exception", "error": "loss is NaN"})
    assert _pick(str(tmp_path)) == first


def test_not_reproduced_gives_the_runs_and_the_likely_causes():
    out = io.StringIO()
    render({"step": 7, "trigger": {"kind": "loss-nonfinite"}, "bundle": "b", "reproduced": False,
            "tests": [{}], "seconds": 0.5, "script_runs": ["exit 1", "exit 1"], "findings": []}, out)
    text = out.getvalue()
    assert "reproduced: no" in text and "ran 2 time(s) in replay mode (ended: exit 1)" in text
    for cause in ("changed in place", "one step early", "nondeterminism", "script state"):
        assert cause in text
    out = io.StringIO()
    render({"step": 7, "trigger": {}, "bundle": "b", "reproduced": True, "tests": [], "findings": []}, out)
    assert "Likely causes" not in out.getvalue()

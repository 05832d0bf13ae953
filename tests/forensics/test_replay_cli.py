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


def test_module_command_from_another_machine_is_refused(tmp_path):
    import pytest

    from traindoc.errors import UserError
    from traindoc.forensics.isolate import check, origin

    b = tmp_path / "b"
    with pytest.raises(UserError, match="refusing to import"):
        check(b, {"command": {"script": "json.tool", "module": True, "cwd": str(tmp_path), "args": []}})
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text("")
    meta = {"command": {"script": "pkg.train", "module": True, "cwd": str(tmp_path), "args": ["--lr", "1e-3"]},
            "origin": origin(b)}
    assert check(b, meta) == f"python -m pkg.train --lr 1e-3  (cwd {tmp_path})"


def test_module_refusal_is_one_line_and_exit_2(tmp_path):
    from conftest import run_cli

    b = _bundle(tmp_path, 3, {"kind": "loss-nonfinite"})
    meta = json.loads((b / "meta.json").read_text())
    meta.update({"format": 1, "step": 3, "batches": [{"spec": None, "indices": [0]}], "command": {"script": "json.tool", "module": True, "cwd": str(tmp_path), "args": []}})
    (b / "meta.json").write_text(json.dumps(meta))
    r = run_cli("replay", b)
    assert r.returncode == 2, r.stderr[-2000:]
    assert "refusing to import" in r.stderr and "Traceback" not in r.stderr

"""End to end through the CLI: five NaN mechanisms, each named by module, op and samples.

``traindoc run`` triggers on the bad step, writes a bundle, replays it (re-executing the
script) and ``traindoc diagnose`` reads the replay's findings. Torch is the oracle: each
script plants one bad sample at a known dataset index.
"""

import json
from pathlib import Path

import pytest

from conftest import run_cli

SCRIPTS = Path(__file__).resolve().parent / "scripts"

CASES = [
    # script, cause, module, op, samples
    ("exp_softmax", "unstable-op", "encoder.attn", "exp", [77]),
    ("log_zero", "unstable-op", "SoftmaxCrossEntropy", "log", [100]),
    ("masked_row", "unstable-op", "layers.0.attn", "_softmax", [50]),
    ("nan_input", "data-nonfinite", "0", "addmm", [200]),
    ("fp16_overflow", "fp16-overflow", "0", "addmm", [30]),
    ("sqrt_backward", "unstable-op", "1", "div", [5]),  # in the backward pass: SqrtBackward0
]


def _diagnose(run):
    # in-process (the CLI's diagnose is what `traindoc run` printed already): one process less
    import traindoc

    d = traindoc.diagnose(run)
    assert d.exit_code == 1
    return json.loads(json.dumps(d.to_json()))


@pytest.mark.parametrize("script,cause,module,op,samples", CASES, ids=[c[0] for c in CASES])
def test_mechanism_named_by_module_op_and_samples(monitored, script, cause, module, op, samples):
    r, run = monitored(script)
    assert r.returncode == 1, r.stderr[-3000:]  # the script's own exit code
    assert f"{op} in {module}" in r.stderr  # the diagnosis printed by `traindoc run`
    assert "traindoc replay: step" in r.stderr and "reproduced: yes" in r.stderr, r.stderr[-3000:]
    bundles = sorted((run / "bundles").iterdir())
    assert len(bundles) == 1 and not bundles[0].name.startswith(".")
    res = json.loads((bundles[0] / "forensics.json").read_text())
    assert res["bad_indices"] == samples and res["bisect"]["verified"] is True
    doc = _diagnose(run)
    top = doc["causes"][0]
    assert top["name"] == cause, [c["name"] for c in doc["causes"]]
    assert top["location"]["module"] == module and top["location"]["op"] == op
    assert top["location"]["samples"] == samples
    assert top["fix"] and top["confirm"].startswith("traindoc replay ")
    if script == "sqrt_backward":
        assert top["location"]["phase"] == "backward" and top["location"]["node"] == "SqrtBackward0"
        assert "gradient of sqrt" in top["message"] and "eps" in top["fix"]


def test_replay_command_is_deterministic_and_flags_the_outlier(monitored):
    r, run = monitored("exp_softmax")
    assert r.returncode == 1
    bundle = next((run / "bundles").iterdir())
    first = json.loads((bundle / "forensics.json").read_text())
    again = run_cli("replay", run, "--json")  # a run folder: its first bundle
    assert again.returncode == 1, again.stderr
    second = json.loads(again.stdout)
    assert second["location"] == first["location"]  # same op, same input ranges, same rows
    assert second["bad_indices"] == first["bad_indices"] == [77]
    assert second["triage"]["verdict"] == "bad-data"
    outlier = [f for f in second["findings"] if f["name"] == "data-outlier"][0]
    assert outlier["location"]["samples"] == [77]
    assert "length 2000" in outlier["message"] and "P99.9" in outlier["fix"]
    text = run_cli("replay", bundle)
    assert "aten::exp in encoder.attn" in text.stdout and "[77]" in text.stdout


def test_loss_spike_is_bundled_and_its_sample_found(monitored):
    r, run = monitored("spike")
    assert r.returncode == 0, r.stderr[-3000:]
    bundles = sorted((run / "bundles").iterdir())
    assert bundles, r.stderr[-3000:]
    meta = json.loads((bundles[0] / "meta.json").read_text())
    assert meta["trigger"]["kind"] in ("loss-spike", "grad-spike")
    res = json.loads((bundles[0] / "forensics.json").read_text())
    assert res["bad_indices"] == [932]


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    r = run_cli("replay", tmp_path / "nope")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no such" in r.stderr
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "meta.json").write_text("{not json")
    r = run_cli("replay", tmp_path / "b")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "unreadable" in r.stderr


def test_python_api_replays_in_process(monitored):
    import traindoc

    r, run = monitored("masked_row")
    bundle = next((run / "bundles").iterdir())
    res = traindoc.replay_bundle(bundle, write=False)
    assert res["bad_indices"] == [50]
    assert res["location"]["culprit"]["module"] == "layers.0.attn"
    assert res["location"]["culprit"]["short"] == "_softmax"
    from torch.utils.data import DataLoader

    assert DataLoader.__iter__.__name__ == "__iter__"  # the replay's patches are gone


def test_script_that_stops_before_backward(monitored):
    """The script checks the loss and exits before backward: the monitor never sees the step
    end, so close() bundles it; the replay re-runs the script (with its arguments) once per
    test, since it exits again at every failing one, and finds the same as without the guard."""
    r, run = monitored("log_zero", "--guard-before-backward")
    assert r.returncode == 1 and "stopping" in r.stderr
    (bundle,) = (run / "bundles").iterdir()
    meta = json.loads((bundle / "meta.json").read_text())
    assert meta["trigger"]["kind"] == "ended-mid-step" and meta["command"]["args"] == ["--guard-before-backward"]
    res = json.loads((bundle / "forensics.json").read_text())
    assert res["bad_indices"] == [100] and len(res["script_runs"]) > 1
    assert res["location"]["culprit"]["short"] == "log"
    plain = json.loads(next((monitored("log_zero")[1] / "bundles").iterdir()).joinpath("forensics.json").read_text())
    good = lambda d: [(p["position"], p["loss"], p["grad_norm"]) for p in d["per_sample"] if not p["bad"]]  # noqa: E731
    assert good(res) == good(plain)  # every re-run loaded the bundled weights into its new model


@pytest.mark.parametrize("script", ["exp_softmax", "sqrt_backward"])
def test_lagged_reads_bundle_replays_to_the_same_finding(monitored, tmp_path, script):
    """``--reads lagged`` writes the bundle a step late, from the weights kept at the bad
    step's boundary: the replay must reproduce it and name the same op and samples."""
    r0, run0 = monitored(script)
    r = run_cli("run", "--reads", "lagged", "--out", tmp_path / "run", SCRIPTS / f"{script}.py")
    assert r.returncode == 1 and "reproduced: yes" in r.stderr, r.stderr[-3000:]
    (b,) = sorted((tmp_path / "run" / "bundles").iterdir())
    (b0,) = sorted((run0 / "bundles").iterdir())
    assert b.name == b0.name  # the same step
    meta = json.loads((b / "meta.json").read_text())
    assert meta["lagged"]["weights"] == "kept"
    got, want = (json.loads((x / "forensics.json").read_text()) for x in (b, b0))
    assert got["bad_indices"] == want["bad_indices"]
    top, top0 = _diagnose(tmp_path / "run")["causes"][0], _diagnose(run0)["causes"][0]
    assert (top["name"], top["location"]) == (top0["name"], top0["location"])


def test_a_hand_written_loss_on_targets_the_bundle_does_not_hold(monitored):
    # the replay serves step 3's inputs at the rerun's first forward, where the loop's own
    # y[idx] are step 0's: the step comes out finite and the replay says why
    r, run = monitored("hand_loss")
    assert r.returncode == 1, r.stderr[-3000:]
    (bundle,) = sorted((run / "bundles").iterdir())
    res = json.loads((bundle / "forensics.json").read_text())
    assert res["reproduced"] is False and res["targets_unheld"] is True
    assert "targets are not in the bundle" in r.stderr, r.stderr[-3000:]

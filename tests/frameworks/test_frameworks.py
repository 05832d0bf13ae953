"""The compatibility matrix: the step, the samples and the top cause are right where
people actually train (closure optimizers, Lightning with automatic and manual
optimization, the Hugging Face Trainer and plain Accelerate loops with and without
gradient accumulation, scripts that guard NaN themselves, loops with no torch.optim
optimizer; torchrun in tests/test_ddp.py). Each faulty script plants NaN in dataset row 300."""

import json
import re
import shutil
from pathlib import Path

import pytest

import traindoc
from conftest import run_cli

SCRIPTS = Path(__file__).resolve().parent / "scripts"


def _run(tmp_path, script, *args):
    shutil.copy(SCRIPTS / script, tmp_path / script)
    r = run_cli("run", "--out", "run", script, *args, cwd=tmp_path)
    return r, traindoc.open_run(tmp_path / "run")


def _top(tmp_path):
    doc = json.loads(run_cli("diagnose", tmp_path / "run", "--json").stdout)
    return doc, doc["causes"][0] if doc["causes"] else None


def _steps_with(run, sample):
    return [s for s in range(run.meta["steps"]) if sample in (run.batch_indices(s) if run.batch_indices(s) is not None else [])]


def test_lbfgs_closure_one_loss_per_step(tmp_path):
    r, run = _run(tmp_path, "lbfgs.py")
    assert r.returncode == 0 and "optimizer-post failed" not in r.stderr, r.stderr[-2000:]
    printed = [float(x) for x in re.findall(r"^\d+ (\S+)$", r.stdout, re.M)]
    loss = run.series("loss").values.tolist()
    assert len(loss) == len(printed) == 15
    assert loss == pytest.approx(printed, rel=1e-6)  # the first closure evaluation, as LBFGS returns it


def test_a_hand_written_update_is_one_step_per_backward(tmp_path):
    r, run = _run(tmp_path, "hand_sgd.py")
    assert r.returncode == 0, r.stderr[-2000:]
    assert run.meta["steps"] == 600 and run.meta["step_clock"]["kind"] == "backward"
    assert "one per backward()" in r.stderr
    assert len(run.series("grad_norm")) == 599  # the first backward's gradients came before the clock
    act = [n for n in run.names() if n.startswith("act/")]
    assert act and max(len(run.series(n)) for n in act) < 60  # sampled steps only: bounded


@pytest.mark.parametrize("mode", ["continue", "break", "exit"])
def test_a_nan_the_script_skips_itself_is_found(tmp_path, mode):
    r, run = _run(tmp_path, "nan_guard.py", mode)
    assert r.returncode == 0 and "nan loss at 0 11" in r.stdout, r.stderr[-2000:]
    assert not run.series("loss/skipped").empty
    doc, top = _top(tmp_path)
    sym = [s for s in doc["symptoms"] if s["name"] == "loss-nonfinite"]
    assert sym and "skipped" in sym[0]["message"] and sym[0]["step"] == 11
    assert top["name"] == "data-nonfinite" and top["location"]["samples"] == [300], top


def test_lightning_automatic_optimization(tmp_path):
    pytest.importorskip("lightning")
    r, run = _run(tmp_path, "lightning_auto.py")
    assert r.returncode == 0 and "failed" not in r.stderr, r.stderr[-3000:]
    assert len(run.series("loss")) == run.meta["steps"] == 32
    first = int(run.series("loss").steps[~__import__("numpy").isfinite(run.series("loss").values)][0])
    assert _steps_with(run, 300)[0] == first
    _, top = _top(tmp_path)
    assert top["name"] == "data-nonfinite" and top["location"]["samples"] == [300] and top["location"]["step"] == first


def _first_nan(run):
    import numpy as np

    loss = run.series("loss")
    return int(loss.steps[~np.isfinite(loss.values)][0])


def test_lightning_manual_optimization(tmp_path):
    pytest.importorskip("lightning")
    r, run = _run(tmp_path, "lightning_manual.py")
    assert r.returncode == 0 and "failed" not in r.stderr, r.stderr[-3000:]
    assert len(run.series("loss")) == run.meta["steps"] == 32
    first = _first_nan(run)
    assert _steps_with(run, 300)[0] == first
    _, top = _top(tmp_path)
    assert top["name"] == "data-nonfinite" and top["location"]["samples"] == [300] and top["location"]["step"] == first


@pytest.mark.parametrize("accum", [1, 2])
def test_accelerate_loop(tmp_path, accum):
    """Accelerator.prepare'd loader (DataLoaderShard reads one batch ahead), accelerator.backward,
    accelerator.accumulate: the step's own samples, each micro-batch's."""
    pytest.importorskip("accelerate")
    r, run = _run(tmp_path, "accelerate_loop.py", str(accum))
    assert r.returncode == 0, r.stderr[-3000:]
    assert run.meta["steps"] == 64 // accum
    assert all(len(run.batch_indices(s)) == 16 * accum for s in range(run.meta["steps"]))
    first = _first_nan(run)
    assert _steps_with(run, 300)[0] == first
    _, top = _top(tmp_path)
    assert top["name"] == "data-nonfinite" and top["location"]["samples"] == [300] and top["location"]["step"] == first


@pytest.mark.parametrize("accum", [1, 2])
def test_hugging_face_trainer(tmp_path, accum):
    pytest.importorskip("transformers")
    pytest.importorskip("accelerate")
    r, run = _run(tmp_path, "hf_trainer.py", str(accum), str(tmp_path / "hf_out"))
    assert r.returncode == 0, r.stderr[-3000:]
    import numpy as np

    loss = run.series("loss")
    first = int(loss.steps[~np.isfinite(loss.values)][0])
    assert _steps_with(run, 300) == [first]  # the indices of the batch the step used, not the next one
    assert all(len(run.batch_indices(s)) == 16 * accum for s in range(run.meta["steps"]))
    _, top = _top(tmp_path)
    assert top["name"] == "data-nonfinite" and top["location"]["samples"] == [300] and top["location"]["step"] == first


@pytest.mark.parametrize("variant", [[], ["--loss-inside"]])
def test_batches_sliced_by_hand_are_replayed_from_the_models_inputs(tmp_path, variant):
    """nanoGPT's get_batch style: random rows of one tensor, no DataLoader. The bundle holds
    what reached the model (and the loss's target); the replay substitutes it and names the
    row of the step's batch (row 10 of step 12 is data row 300 for this seed)."""
    r, run = _run(tmp_path, "get_batch.py", *variant)
    assert r.returncode == 1 and "iter 12: loss nan" in r.stdout, r.stderr[-3000:]
    assert "reproduced: yes" in r.stderr, r.stderr[-3000:]
    bundle = next((tmp_path / "run" / "bundles").iterdir())
    assert json.loads((bundle / "meta.json").read_text())["batch_source"] == "forward"
    _, top = _top(tmp_path)
    assert top["name"] == "data-nonfinite" and top["location"]["step"] == 12
    assert top["location"]["batch_rows"] == [10]


def test_two_forwards_per_backward_are_replayed_as_one_test(tmp_path):
    """A siamese pair (the encoder runs on two views, one backward) sliced by hand: the bundle
    records both forwards as one test, the replay serves them in order and reproduces the
    backward-only NaN of sqrt at 0 (it used to start a new test at the second forward and
    fail on the model's own in-place reload)."""
    r, run = _run(tmp_path, "pair_sqrt.py")
    assert r.returncode == 1 and "step 7: weights non-finite" in r.stdout, r.stderr[-3000:]
    assert "reproduced: yes" in r.stderr and "SqrtBackward0" in r.stderr, r.stderr[-3000:]
    bundle = next((tmp_path / "run" / "bundles").iterdir())
    meta = json.loads((bundle / "meta.json").read_text())
    assert [e.get("group") for e in meta["batches"]] == [0, 0]
    _, top = _top(tmp_path)
    assert top["name"] == "unstable-op" and top["location"]["step"] == 7


@pytest.mark.parametrize("script,args", [("lightning_callback.py", ["run"]), ("hf_callback.py", ["1", "hf_out", "run"])])
def test_one_line_callbacks_record_the_fit(tmp_path, script, args):
    """traindoc.integrations.{lightning,hf}.TraindocCallback instead of `traindoc run`:
    plain `python script.py`, the diagnosis printed at the end, the replay afterwards."""
    pytest.importorskip("lightning" if "lightning" in script else "transformers")
    from conftest import run_python

    shutil.copy(SCRIPTS / script, tmp_path / script)
    r = run_python(script, *args, cwd=tmp_path)
    assert r.returncode == 0 and "loss-nonfinite" in r.stderr, r.stderr[-3000:]
    run = traindoc.open_run(tmp_path / "run")
    assert run.meta["framework"]["name"] in ("lightning", "huggingface") and run.meta["status"] == "finished"
    rep = run_cli("replay", tmp_path / "run", "--json", cwd=tmp_path)
    assert json.loads(rep.stdout)["bad_indices"] == [300], rep.stderr[-3000:]


def test_stop_on_nonfinite_ends_the_run_after_the_bundle(tmp_path):
    r, run = _run_opts(tmp_path, "nan_guard.py", ["--stop-on", "nonfinite"])
    assert r.returncode == 1 and "done" not in r.stdout and "stopped the run at step 11" in r.stderr, r.stderr[-2000:]
    assert run.meta["status"] == "stopped" and run.meta["steps"] == 11
    assert (tmp_path / "run" / "bundles").is_dir() and "reproduced: yes" in r.stderr


def _run_opts(tmp_path, script, opts, *args):
    shutil.copy(SCRIPTS / script, tmp_path / script)
    r = run_cli("run", *opts, "--out", "run", script, *args, cwd=tmp_path)
    return r, traindoc.open_run(tmp_path / "run")

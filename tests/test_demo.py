"""`traindoc demo` tells the founding story on bundled data."""

import traindoc
from conftest import run_cli


def test_demo_finds_the_nan_step_and_its_batch(tmp_path):
    r = run_cli("demo", "--out", tmp_path / "demo")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "loss-nonfinite" in r.stdout
    run = traindoc.open_run(tmp_path / "demo")
    loss = run.series("loss")
    step = int(loss.steps[-1])
    assert loss.values[-1] != loss.values[-1]  # NaN at the end
    assert 5171 in run.batch_indices(step).tolist()  # the 5 000-long history
    assert f"step {step}" in r.stdout

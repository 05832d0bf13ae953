"""`traindoc demo` tells the founding story on bundled data: run, NaN at the step that draws
the 5 000-long history, bundle, replay (exp in the attention module, sample 5171, the
length outlier), fixes, diagnosis."""

import json

import traindoc
from conftest import run_cli


def test_demo_tells_the_whole_story(tmp_path):
    r = run_cli("demo", "--out", tmp_path / "demo")
    assert r.returncode == 0, r.stderr[-2000:]
    out = " ".join(r.stdout.split())  # the console wraps long lines
    run = traindoc.open_run(tmp_path / "demo")
    loss = run.series("loss")
    step = int(loss.steps[-1])
    assert loss.values[-1] != loss.values[-1]  # NaN at the end
    assert 5171 in run.batch_indices(step).tolist()  # the 5 000-long history
    assert f"loss-nonfinite at step {step}" in out  # the trigger fired at that step
    assert "aten::exp in attn" in out and "InterestAttention" in out
    assert "dataset indices [5171]" in out and "length 5000" in out
    assert "subtract the row max" in out and "P99.9" in out
    (bundle,) = (tmp_path / "demo" / "bundles").iterdir()
    res = json.loads((bundle / "forensics.json").read_text())
    assert res["bad_indices"] == [5171] and res["triage"]["verdict"] == "bad-data"
    top = traindoc.diagnose(tmp_path / "demo").causes[0]  # the public name (importing the submodule would shadow it)
    assert top.name == "unstable-op" and top.location["module"] == "attn" and top.location["op"] == "exp"
    assert top.location["samples"] == [5171]

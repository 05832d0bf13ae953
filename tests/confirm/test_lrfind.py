"""traindoc lr-find: reading a range test's curve, and the command on a real script."""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from traindoc.confirm.lrfind import suggest

LRS = list(np.geomspace(1e-7, 10, 100))


def curve(edge=1e-2, floor=0.3, noise=0.0, seed=0):
    """A typical sweep: flat, then falling from ~edge/1000, lowest near `edge`, then blowing up."""
    rng = np.random.default_rng(seed)
    out = []
    for lr in LRS:
        x = math.log10(lr / edge)
        v = 2.3 - (2.3 - floor) / (1 + math.exp(-3 * (x + 1.5))) + (math.exp(4 * x) if x > 0 else 0)
        out.append(v * (1 + noise * rng.standard_normal()))
    return out


def test_suggests_a_tenth_of_the_edge_with_an_interval():
    r = suggest(LRS, curve(edge=1e-2))
    assert 3e-3 <= r.edge <= 2e-2
    assert r.suggestion == r.edge / 10 and r.interval[0] < r.suggestion < r.interval[1]


def test_noise_moves_the_suggestion_by_less_than_half_a_decade():
    s = [suggest(LRS, curve(edge=1e-2, noise=0.05, seed=i)).suggestion for i in range(10)]
    assert max(np.log10(s)) - min(np.log10(s)) < 0.5


def test_a_loss_that_never_falls_gets_no_suggestion():
    r = suggest(LRS, [2.3] * 100)
    assert r.suggestion is None and "never fell" in r.note


def test_a_loss_broken_at_once_gets_no_suggestion():
    r = suggest(LRS[:5] + LRS[5:], [2.3, 5, math.nan] + [math.nan] * 97)
    assert r.suggestion is None and "broke at once" in r.note


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=120))
def test_any_curve_gives_a_reading(losses):
    r = suggest(list(np.geomspace(1e-7, 10, len(losses))), losses)
    assert r.suggestion is None or (r.suggestion > 0 and r.interval[0] < r.suggestion < r.interval[1])
    json.dumps(r.to_dict(), allow_nan=False)


def test_lr_find_on_a_script(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(
        "import torch\ntorch.manual_seed(0)\nX = torch.randn(2048, 16); y = (X[:, :4].sum(1) > 0).long()\n"
        "m = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 2))\n"
        "opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
        "sched = torch.optim.lr_scheduler.StepLR(opt, 10)\n"
        "for step in range(200):\n    i = torch.randint(0, 2048, (64,))\n"
        "    loss = torch.nn.functional.cross_entropy(m(X[i]), y[i])\n"
        "    opt.zero_grad(); loss.backward(); opt.step(); sched.step()\n"
        "torch.save(m.state_dict(), 'model.pt')\n")
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE", "TRAINDOC_ALLOW_UNSANDBOXED": "1"}
    r = subprocess.run([sys.executable, "-m", "traindoc", "lr-find", "--json", "--plot", "lr.html", "train.py"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert 1e-3 < doc["suggestion"] < 10 and len(doc["curve"]) >= 20
    assert (tmp_path / "lr.html").stat().st_size > 10_000
    r = subprocess.run([sys.executable, "-m", "traindoc", "lr-find", "nope.py"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "no such script" in r.stderr

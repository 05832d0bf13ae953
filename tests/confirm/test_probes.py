"""traindoc overfit and traindoc init-check on real scripts."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent / "scripts"
ENV = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE", "TRAINDOC_ALLOW_UNSANDBOXED": "1"}


def td(*args, cwd):
    return subprocess.run([sys.executable, "-m", "traindoc", *map(str, args)], cwd=cwd, env=ENV,
                          capture_output=True, text=True, timeout=600)


def test_init_check_flags_a_vanishing_init_and_passes_the_default(tmp_path):
    shutil.copy(HERE / "deep_mlp.py", tmp_path)
    r = td("init-check", "--json", "deep_mlp.py", "0.01", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    assert len(doc["layers"]) == 9 and any("vanishing gradients" in f for f in doc["flags"])
    r = td("init-check", "--json", "deep_mlp.py", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["ok"]


def test_overfit_fits_one_batch_and_says_when_it_cannot(tmp_path):
    shutil.copy(HERE / "healthy.py", tmp_path)
    r = td("overfit", "--json", "healthy.py", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["fits"] is True
    bad = tmp_path / "frozen.py"  # the model's weights are frozen: nothing can fit
    bad.write_text((HERE / "healthy.py").read_text().replace(
        "opt = torch.optim.Adam(model.parameters(), lr=3e-3)",
        "head = torch.nn.Linear(3, 3)\nfor p in model.parameters():\n    p.requires_grad_(False)\n"
        "model = torch.nn.Sequential(model, head)\nopt = torch.optim.Adam(head.parameters(), lr=1e-5)"))
    r = td("overfit", "frozen.py", cwd=tmp_path)
    assert r.returncode == 1 and "cannot fit even one batch" in r.stdout and "check:" in r.stdout
    r = td("overfit", "missing.py", cwd=tmp_path)
    assert r.returncode == 2 and "no such script" in r.stderr

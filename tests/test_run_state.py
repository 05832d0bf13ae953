"""A run that did not finish says so (killed, crashed, exited): never a plain "No problem
found" that reads like a clean bill of health."""

import json
import signal

from conftest import run_cli

KILLED = """
import os, signal, sqlite3, sys, time, torch
from torch import nn
torch.manual_seed(0)  # a verdict on random data is a draw; this test is about the run's status
m = nn.Linear(4, 1); opt = torch.optim.SGD(m.parameters(), lr=0.01)
for i in range(40):
    loss = m(torch.randn(8, 4)).pow(2).mean(); opt.zero_grad(); loss.backward(); opt.step()
db = os.path.join(sys.argv[1], "rank0.sqlite")
for _ in range(6000):  # until the writer thread has committed step 39 (an event, not a guess)
    try:
        row = sqlite3.connect(f"file:{db}?mode=ro", uri=True).execute("SELECT MAX(step) FROM points").fetchone()
    except sqlite3.Error:
        row = None
    if row and row[0] == 39:
        break
    time.sleep(0.01)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_killed_run_is_reported_unfinished(tmp_path):
    (tmp_path / "k.py").write_text(KILLED)
    r = run_cli("run", "--out", "run", "k.py", "run", cwd=tmp_path)
    assert r.returncode == -signal.SIGKILL
    d = run_cli("diagnose", tmp_path / "run")
    assert "status unfinished" in d.stdout and "did not finish" in d.stdout and "after step 39" in d.stdout
    assert "No problem found in what was recorded" in d.stdout
    doc = json.loads(run_cli("diagnose", tmp_path / "run", "--json").stdout)
    assert doc["status"] == "unfinished" and "killed" in doc["note"]


def test_a_crashed_run_names_the_exception(tmp_path):
    (tmp_path / "c.py").write_text(
        "import torch\nfrom torch import nn\nm = nn.Linear(4, 1); opt = torch.optim.SGD(m.parameters(), lr=0.01)\n"
        "for i in range(5):\n    loss = m(torch.randn(8, 4)).pow(2).mean(); opt.zero_grad(); loss.backward(); opt.step()\n"
        "raise RuntimeError('out of memory (simulated)')\n")
    r = run_cli("run", "--out", "run", "c.py", cwd=tmp_path)
    assert r.returncode == 1
    assert "crashed after step 4: RuntimeError: out of memory (simulated)" in r.stderr
    assert "No problem found: " not in r.stderr

"""One run per folder: a used, busy or unusable --out is refused in one line before the
script starts; traindoc.watch() inside a script falls back to a fresh folder or joins the
monitor that already records the process."""

import subprocess
import sys
import time

from conftest import _env, run_cli

LOOP = """
import sys, torch
from torch import nn
m = nn.Linear(4, 1); opt = torch.optim.SGD(m.parameters(), lr=0.1)
for i in range(5):
    loss = m(torch.randn(8, 4)).pow(2).mean(); opt.zero_grad(); loss.backward(); opt.step()
"""


def test_a_used_folder_is_refused_and_not_merged(tmp_path):
    (tmp_path / "train.py").write_text(LOOP + "print('trained')\n")
    assert run_cli("run", "--out", "r", "train.py", cwd=tmp_path).returncode == 0
    before = (tmp_path / "r" / "rank0.sqlite").read_bytes()
    r = run_cli("run", "--out", "r", "train.py", cwd=tmp_path)
    assert r.returncode == 2 and "already holds a recorded run" in r.stderr and r.stderr.count("\n") == 1
    assert "trained" not in r.stdout  # refused before the script started
    assert (tmp_path / "r" / "rank0.sqlite").read_bytes() == before


def test_a_file_or_unwritable_out_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "train.py").write_text(LOOP)
    (tmp_path / "f").write_text("x")
    r = run_cli("run", "--out", "f", "train.py", cwd=tmp_path)
    assert r.returncode == 2 and "is a file" in r.stderr and r.stderr.count("\n") == 1
    r = run_cli("run", "--out", "/proc/traindoc-nope/run", "train.py", cwd=tmp_path)
    assert r.returncode == 2 and "cannot create" in r.stderr and r.stderr.count("\n") == 1


def test_a_second_process_on_a_busy_folder_is_refused(tmp_path):
    (tmp_path / "train.py").write_text(
        "import pathlib, time\n" + LOOP.replace("for i in range(5):", "for i in range(1):") +
        "pathlib.Path('started').touch()\n"
        "while not pathlib.Path('go').exists():\n    time.sleep(0.05)\n")
    first = subprocess.Popen([sys.executable, "-m", "traindoc", "run", "--out", "r", "train.py"], cwd=tmp_path,
                             env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while not (tmp_path / "started").exists():  # waits for the event, not a fixed time
            assert first.poll() is None and time.monotonic() < deadline, first.communicate()
            time.sleep(0.05)
        r = run_cli("run", "--out", "r", "train.py", cwd=tmp_path)
        assert r.returncode == 2 and "another traindoc process" in r.stderr, r.stderr
    finally:
        (tmp_path / "go").touch()
        out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err


def test_watch_in_a_script_falls_back_or_joins(tmp_path):
    (tmp_path / "w.py").write_text(
        "import traindoc\n" + "with traindoc.watch(out='inner'):\n" +
        "\n".join("    " + line for line in LOOP.strip().splitlines()) + "\nprint('done')\n")
    r1 = run_cli("run", "--out", "outer", "w.py", cwd=tmp_path)
    assert r1.returncode == 0 and "joins the monitor" in r1.stderr and "done" in r1.stdout, r1.stderr
    assert (tmp_path / "outer" / "rank0.sqlite").exists() and not (tmp_path / "inner").exists()
    env = _env()
    for _ in range(2):
        r = subprocess.run([sys.executable, "w.py"], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert r.returncode == 0 and "done" in r.stdout, r.stderr
    assert "recording into" in r.stderr and (tmp_path / "inner-2" / "rank0.sqlite").exists()

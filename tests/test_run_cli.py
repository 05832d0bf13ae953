"""`traindoc run` behaves like `python SCRIPT`: output, exit codes, exceptions; and the
run folder is finalized whatever happened."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import traindoc
from conftest import SCRIPTS, _env, run_cli, run_python


def test_observer_effect_bit_for_bit(tmp_path):
    """No observer effect: the monitored run computes the same losses, bit for bit."""
    args = [SCRIPTS / "mlp_basic.py", "--steps", "80", "--eval", "--print-losses"]
    plain = run_python(*args)
    mon = run_cli("run", "--out", tmp_path / "r", "--sample-every", "3", *args)
    assert plain.returncode == 0 and mon.returncode == 0, mon.stderr
    assert plain.stdout == mon.stdout  # repr() of every float loss, identical
    run = traindoc.open_run(tmp_path / "r")
    recorded = run.series("loss").values
    printed = np.array([float(x) for x in plain.stdout.split("\n")[0].split()])
    assert len(recorded) == 80
    np.testing.assert_array_equal(recorded.astype(np.float32), printed.astype(np.float32))


def test_exit_code_and_stdout_pass_through(tmp_path):
    script = tmp_path / "exit3.py"
    script.write_text("import sys\nprint('hello', sys.argv[1:], __name__)\nsys.exit(3)\n")
    r = run_cli("run", "--out", tmp_path / "r", script, "--flag", "x")
    assert r.returncode == 3
    assert r.stdout == "hello ['--flag', 'x'] __main__\n"
    assert traindoc.open_run(tmp_path / "r").meta["exit_code"] == 3


def test_exception_passes_through_and_is_recorded(tmp_path):
    script = tmp_path / "boom.py"
    script.write_text("def f():\n    raise ValueError('bad thing')\nf()\n")
    r = run_cli("run", "--out", tmp_path / "r", script)
    assert r.returncode == 1
    assert "Traceback (most recent call last)" in r.stderr
    assert "ValueError: bad thing" in r.stderr
    assert "traindoc/monitor" not in r.stderr.split("ValueError")[0]  # user frames only
    run = traindoc.open_run(tmp_path / "r")
    assert run.meta["status"] == "crashed"
    ev = [e for e in run.events() if e["kind"] == "exception"]
    assert ev and "ValueError: bad thing" in ev[0]["message"]


WAIT_FOR_STEP = (
    "import os, sqlite3, time\n"
    "def wait_for_step(n, folder):  # until the writer thread has committed step n: an event, not a guess\n"
    "    db = os.path.join(folder, 'rank0.sqlite')\n"
    "    for _ in range(60000):\n"
    "        try:\n"
    "            row = sqlite3.connect(f'file:{db}?mode=ro', uri=True).execute('SELECT MAX(step) FROM points').fetchone()\n"
    "        except sqlite3.Error:\n"
    "            row = None\n"
    "        if row and row[0] is not None and row[0] >= n:\n"
    "            return\n"
    "        time.sleep(0.01)\n"
    "    raise SystemExit('step never committed')\n"
)


def test_ctrl_c_finalizes_and_exits_like_python(tmp_path):
    script = tmp_path / "loop.py"
    script.write_text(
        "import sys, torch\n" + WAIT_FOR_STEP +
        "m = torch.nn.Linear(4, 1); o = torch.optim.SGD(m.parameters(), lr=0.01)\n"
        "i = 0\n"
        "while True:\n"
        "    o.zero_grad(); m(torch.randn(8, 4)).pow(2).mean().backward(); o.step(); i += 1\n"
        "    if i == 10:\n"
        "        wait_for_step(9, sys.argv[1]); print('ready', flush=True)\n"
    )
    p = subprocess.Popen([sys.executable, "-m", "traindoc", "run", "--out", str(tmp_path / "r"), str(script),
                          str(tmp_path / "r")], env={**_env(), "PYTHONFAULTHANDLER": "1"},
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         # A job started in the background by a non-interactive shell (a CI
                         # runner, `cmd &`) inherits SIGINT ignored, and python then installs no
                         # KeyboardInterrupt handler: the run would never see the Ctrl-C. A
                         # terminal's foreground job has the default; give the script that.
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert p.stdout.readline().strip() == "ready"  # 10 steps done and recorded, however slow the machine
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:  # dump every thread's stack
        p.send_signal(signal.SIGABRT)
        out, err = p.communicate()
        pytest.fail("no exit 120 s after Ctrl-C; the threads' stacks:\n" + err[-8000:])
    assert p.returncode in (130, -signal.SIGINT)  # what python itself does on Ctrl-C
    assert "KeyboardInterrupt" in err
    run = traindoc.open_run(tmp_path / "r")
    assert run.meta["status"] == "interrupted"
    assert len(run.series("loss")) >= 10


def test_kill_9_keeps_what_was_committed(tmp_path):
    """kill -9 at any moment: the store opens and diagnoses, with every step the writer
    committed before the kill (it commits every 0.25 s: at most the last fraction of a
    second is lost; that bound is a speed, measured by bench/overhead.py, not tested here)."""
    script = tmp_path / "forever.py"
    script.write_text(
        "import sys, torch\n" + WAIT_FOR_STEP +
        "m = torch.nn.Linear(4, 1); o = torch.optim.SGD(m.parameters(), lr=0.01)\n"
        "i = 0\n"
        "while True:\n"
        "    o.zero_grad(); m(torch.randn(8, 4)).pow(2).mean().backward(); o.step(); i += 1\n"
        "    if i == 100:\n"
        "        wait_for_step(99, sys.argv[1]); print('committed', flush=True)\n"
    )
    p = subprocess.Popen([sys.executable, "-m", "traindoc", "run", "--out", str(tmp_path / "r"), str(script),
                          str(tmp_path / "r")], env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "committed"
    p.send_signal(signal.SIGKILL)  # while the loop keeps training
    p.wait(timeout=60)
    run = traindoc.open_run(tmp_path / "r")
    assert run.meta["status"] == "running"  # never finalized: killed
    assert run.series("loss").steps.max() >= 99
    d = run_cli("diagnose", tmp_path / "r", "--json")
    assert d.returncode == 0, d.stderr
    doc = json.loads(d.stdout)
    assert doc["version"] == 1 and doc["status"] == "unfinished"


def test_bad_input_exit_2(tmp_path):
    r = run_cli("run", "--out", tmp_path / "r", tmp_path / "missing.py")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no such script" in r.stderr
    r = run_cli("diagnose", tmp_path / "nope")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    (tmp_path / "empty").mkdir()
    r = run_cli("diagnose", tmp_path / "empty")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "nothing traindoc reads" in r.stderr
    bad = tmp_path / "corrupt"
    bad.mkdir()
    (bad / "rank0.sqlite").write_bytes(b"this is not sqlite at all" * 100)
    r = run_cli("diagnose", bad)
    assert r.returncode == 2 and "corrupt" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("explain", "no-such-name")
    assert r.returncode == 2


def test_nan_run_is_diagnosed(tmp_path):
    r = run_cli("run", "--out", tmp_path / "r", SCRIPTS / "mlp_basic.py", "--steps", "60", "--nan-at", "0")
    assert r.returncode == 0
    assert "loss-nonfinite" in r.stderr
    d = run_cli("diagnose", tmp_path / "r", "--json")
    doc = json.loads(d.stdout)
    names = [s["name"] for s in doc["symptoms"]]
    assert "loss-nonfinite" in names and "grad-nonfinite" in names
    first = [s for s in doc["symptoms"] if s["name"] == "loss-nonfinite"][0]
    run = traindoc.open_run(tmp_path / "r")
    # the step that drew sample 300 (the poisoned one) is the first non-finite step
    step = first["step"]
    assert 300 in run.batch_indices(step).tolist()
    for s in range(step):
        assert 300 not in run.batch_indices(s).tolist()


def test_python_m_traindoc_module_mode(tmp_path):
    pkg = tmp_path / "mypkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "train.py").write_text("import sys\nprint('mod', __name__, sys.argv[1:])\n")
    r = run_cli("run", "--out", tmp_path / "r", "-m", "mypkg.train", "a", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "mod __main__ ['a']"


def test_full_disk_stops_recording_not_training(tmp_path):
    """The store hits the file-size limit (as on a full disk): the script still finishes
    with its own output and exit code, and traindoc says once that it stopped recording."""
    import resource

    script = tmp_path / "long.py"
    script.write_text(
        "import torch\n"
        "torch.manual_seed(0)\n"
        "m = torch.nn.Sequential(*[torch.nn.Linear(8, 8) for _ in range(8)])\n"
        "o = torch.optim.SGD(m.parameters(), lr=0.01)\n"
        "import sys\n" + WAIT_FOR_STEP +
        "for i in range(600):\n"
        "    o.zero_grad(); l = m(torch.randn(4, 8)).pow(2).mean(); l.backward(); o.step()\n"
        "    if i == 20: wait_for_step(19, sys.argv[1])  # the first steps flushed before the limit bites\n"
        "print('trained', i + 1)\n"
    )

    def limit():  # Python ignores SIGXFSZ, so writes past the limit fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (128 * 1024, 128 * 1024))

    p = subprocess.run([sys.executable, "-m", "traindoc", "run", "--out", str(tmp_path / "r"), str(script),
                        str(tmp_path / "r")], env=_env(), capture_output=True, text=True, timeout=600, preexec_fn=limit)
    assert p.returncode == 0, p.stderr
    assert "trained 600" in p.stdout
    assert p.stderr.count("stopped recording") == 1, p.stderr
    run = traindoc.open_run(tmp_path / "r")
    assert 20 <= len(run.series("loss")) < 600

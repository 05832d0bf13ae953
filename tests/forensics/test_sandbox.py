"""The replay re-executes the user's script inside an operating-system sandbox: every file
the script writes, deletes or truncates stays as the real run left it."""

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import _env, run_cli
from traindoc import sandbox

SCRIPTS = Path(__file__).resolve().parent / "scripts"

HOSTILE = r'''
import os, shutil, subprocess, tempfile, json
r = {}
def t(name, f):
    try:
        f(); r[name] = "ok"
    except Exception as e:
        r[name] = type(e).__name__
t("rmtree", lambda: shutil.rmtree("out"))
t("makedirs", lambda: os.makedirs("out", exist_ok=True))
t("write", lambda: open("out/ckpt.txt", "w").write("replay"))
t("readback", lambda: r.__setitem__("content", open("out/ckpt.txt").read()))
t("append", lambda: open("log.csv", "a").write("replay\n"))
t("tmp", lambda: tempfile.NamedTemporaryFile().write(b"x"))
t("devnull", lambda: open("/dev/null", "w").write("x"))
t("child", lambda: subprocess.run(["sh", "-c", "echo x > from_child.txt"], check=True))
t("home", lambda: open(os.path.expanduser("~/.traindoc-sandbox-test"), "w").write("x"))
print(json.dumps(r))
'''


def _mode_or_skip(mode):
    os.environ[sandbox.ENV_MODE] = mode
    try:
        got, why = sandbox.available()
    finally:
        del os.environ[sandbox.ENV_MODE]
    if got != mode:
        pytest.skip(f"no {mode} sandbox on this machine: {why}")


def _snapshot(folder: Path) -> dict:
    """Every file under ``folder``: content hash and modification time."""
    return {str(p.relative_to(folder)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _user_folder(tmp_path):
    proj = tmp_path / "proj"
    (proj / "out").mkdir(parents=True)
    (proj / "out" / "ckpt.txt").write_text("real")
    (proj / "log.csv").write_text("real\n")
    (proj / "hostile.py").write_text(HOSTILE)
    return proj


@pytest.mark.parametrize("mode", sandbox.MODES)
def test_a_sandboxed_script_changes_no_file(tmp_path, mode):
    _mode_or_skip(mode)
    proj = _user_folder(tmp_path)
    before = _snapshot(proj)
    home_probe = Path.home() / ".traindoc-sandbox-test"
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    env = _env()
    env["TMPDIR"] = str(scratch)
    r = subprocess.run(sandbox.command(mode, str(scratch), [str(proj / "hostile.py")]), cwd=proj, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    seen = json.loads(r.stdout)
    assert _snapshot(proj) == before
    assert not home_probe.exists()
    assert seen["devnull"] == "ok" and seen["tmp"] == "ok"
    if mode == "namespace":  # a throwaway copy of the file system: the script sees its own writes
        assert seen["rmtree"] == seen["write"] == seen["child"] == seen["append"] == seen["home"] == "ok"
        assert seen["content"] == "replay"
    else:  # landlock: writes outside the scratch folder are refused
        assert seen["rmtree"] == seen["write"] == seen["append"] == seen["home"] == "PermissionError"
        assert seen["child"] == "CalledProcessError"


def test_the_sandbox_is_inherited_by_dataloader_workers(tmp_path):
    """Shared memory for worker processes still works inside the sandbox."""
    mode, why = sandbox.available()
    if mode is None:
        pytest.skip(why)
    script = tmp_path / "workers.py"
    script.write_text(
        "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\n"
        "if __name__ == '__main__':\n"
        "    dl = DataLoader(TensorDataset(torch.arange(64.).reshape(32, 2)), batch_size=8, num_workers=2)\n"
        "    print(sum(float(b[0].sum()) for b in dl))\n")
    # a short scratch path, as the replay's: multiprocessing puts a Unix socket in TMPDIR and
    # socket paths are limited to 108 bytes (pytest's tmp_path under xdist is too long)
    scratch = Path(tempfile.mkdtemp(prefix="td-"))
    env = _env()
    env["TMPDIR"] = str(scratch)
    try:
        r = subprocess.run(sandbox.command(mode, str(scratch), [str(script)]), cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    assert r.returncode == 0 and float(r.stdout) == sum(range(64)), r.stderr[-2000:]


@pytest.fixture(scope="module")
def writes_run(tmp_path_factory):
    """`traindoc run` on a script that clears its output folder and writes checkpoints, a CSV
    and TensorBoard events every step; its automatic replay ran in the sandbox."""
    if sandbox.available()[0] is None:
        pytest.skip("no sandbox on this machine: the automatic replay is off")
    pytest.importorskip("tensorboard")
    cwd = tmp_path_factory.mktemp("writes")
    shutil.copy(SCRIPTS / "writes_files.py", cwd / "train.py")
    r = run_cli("run", "--out", "run", "train.py", "out", "--tensorboard", cwd=cwd)
    return cwd, r


def test_automatic_replay_leaves_the_scripts_files_as_the_real_run_wrote_them(writes_run):
    cwd, r = writes_run
    assert r.returncode == 1 and "reproduced: yes" in r.stderr, r.stderr[-3000:]
    assert "sandbox)" in r.stderr
    stop = int(r.stdout.split("stopped at step ")[1].split()[0])
    out = cwd / "out"
    # the real run's content: the replay's script runs (step 0, 1, ...) changed nothing
    import numpy as np
    import torch

    assert torch.load(out / "last.pt")["step"] == stop - 1
    assert len((out / "metrics.csv").read_text().splitlines()) == stop + 2  # header + steps 0..stop
    assert np.load(out / "weights.npy").shape == (16, 8)
    # no second event file from the replay (the `.traindoc` one is the diagnosis written back
    # into the script's TensorBoard logs at the end of `traindoc run`, on purpose)
    assert len([f for f in (out / "tb").iterdir() if not f.name.endswith(".traindoc")]) == 1
    bundle = next((cwd / "run" / "bundles").iterdir())
    res = json.loads((bundle / "forensics.json").read_text())
    assert res["bad_indices"] == [300]
    # sample 300 holds +Inf; the second Linear turns Inf - Inf into NaN: the data is the
    # cause, not the matmul (a fully masked softmax row stays unstable-op: test_e2e)
    names = [f["name"] for f in res["findings"]]
    assert "data-nonfinite" in names and "unstable-op" not in names


@pytest.mark.parametrize("mode", sandbox.MODES)
def test_explicit_replay_in_each_sandbox_changes_no_file(writes_run, mode):
    _mode_or_skip(mode)
    cwd, _ = writes_run
    before = _snapshot(cwd / "out")
    env_mode = os.environ.get(sandbox.ENV_MODE)
    os.environ[sandbox.ENV_MODE] = mode
    try:
        r = run_cli("replay", cwd / "run", cwd=cwd)
    finally:
        os.environ.pop(sandbox.ENV_MODE)
        if env_mode is not None:
            os.environ[sandbox.ENV_MODE] = env_mode
    assert f"({mode} sandbox)" in r.stderr, r.stderr[-2000:]
    assert _snapshot(cwd / "out") == before
    if mode == "namespace":
        assert r.returncode == 1 and "reproduced: yes" in r.stdout
    else:  # the script's own rmtree/makedirs fail before its loop: said, not hidden
        assert "cannot write files" in r.stdout, r.stdout[-2000:]


def test_without_a_sandbox_nothing_runs_unasked(writes_run, monkeypatch):
    cwd, _ = writes_run
    before = _snapshot(cwd / "out")
    monkeypatch.setenv(sandbox.ENV_MODE, "off")
    monkeypatch.setenv(sandbox.ENV_ALLOW_NONE, "0")
    r = run_cli("replay", cwd / "run", cwd=cwd)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--no-sandbox" in r.stderr, r.stderr
    assert _snapshot(cwd / "out") == before
    from traindoc.forensics.isolate import replay_subprocess

    note = replay_subprocess(next((cwd / "run" / "bundles").iterdir()))
    assert "automatic replay is off" in note and "traindoc replay --no-sandbox" in note


def test_replay_refuses_a_changed_or_missing_script_and_a_moved_bundle(writes_run, tmp_path):
    cwd, _ = writes_run
    run = tmp_path / "copy"
    shutil.copytree(cwd / "run", run)
    bundle = next((run / "bundles").iterdir())
    meta = json.loads((bundle / "meta.json").read_text())
    meta["command"]["args"] = ["elsewhere", "--tensorboard"]  # an edited command: no longer signed
    (bundle / "meta.json").write_text(json.dumps(meta))
    r = run_cli("replay", bundle)
    assert r.returncode == 2 and "--yes" in r.stderr and "python train.py elsewhere --tensorboard" in r.stderr
    assert "not signed by you" in r.stderr and r.stderr.count("\n") == 1
    r = run_cli("replay", bundle, env={"XDG_DATA_HOME": str(tmp_path / "other-user")})  # another user's key
    assert r.returncode == 2 and "--yes" in r.stderr
    script = cwd / "train.py"
    text = script.read_text()
    try:
        script.write_text(text + "\n# edited\n")
        r = run_cli("replay", cwd / "run")
        assert r.returncode == 2 and "changed since the run" in r.stderr and "--allow-changed" in r.stderr
        script.unlink()
        r = run_cli("replay", cwd / "run")
        assert r.returncode == 2 and "not there any more" in r.stderr
    finally:
        script.write_text(text)
    meta = json.loads((bundle / "meta.json").read_text())
    meta["command"]["cwd"] = str(tmp_path / "gone")
    (bundle / "meta.json").write_text(json.dumps(meta))
    r = run_cli("replay", bundle, "--yes")
    assert r.returncode == 2 and "working directory" in r.stderr and r.stderr.count("\n") == 1


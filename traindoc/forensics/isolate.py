"""Re-execute a bundle's script in the operating-system sandbox (:mod:`traindoc.sandbox`).

``traindoc replay`` (and ``traindoc run``'s automatic replay, and ``replay_bundle``) come
here. Before anything runs: the bundle must open, its recorded working directory and
script must still be there and unchanged (SHA-256 recorded at run time), and a bundle
written on another machine or at another path needs the user's yes. Then a child process
enters the sandbox, replays the step (:func:`traindoc.forensics.analyze.analyze`) and
writes ``forensics.json`` and ``replay.log`` into its scratch folder, the only place it
can write; this process moves them into the bundle. Without a sandbox nothing runs unless
the caller says so (``--no-sandbox``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .. import sandbox
from ..errors import UserError
from ..fileio import atomic_write

OUTPUTS = ("forensics.json", "replay.log")


def fingerprint(path: str | Path) -> str | None:
    """SHA-256 of a script file (``None`` when it cannot be read): the replay refuses to run
    code that changed since the run."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def origin(bundle_dir: Path, command: dict[str, Any] | None = None) -> dict[str, str]:
    """Where a bundle is written, and an HMAC of its command under this user's key: a
    bundle whose command was not signed here (another machine or user, or an edited
    ``meta.json``) needs the user's yes to run."""
    out = {"host": socket.gethostname(), "path": str(bundle_dir.resolve())}
    sig = _sign(command) if command is not None else None
    if sig:
        out["signature"] = sig
    return out


def _key() -> bytes | None:
    """This user's bundle-signing key (32 random bytes, created on first use, mode 600);
    None where it cannot be kept (the host/path check then stands alone)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "traindoc"
    p = base / "bundle.key"
    try:
        if not p.is_file():
            base.mkdir(parents=True, exist_ok=True)
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(os.urandom(32))
        key = p.read_bytes()
        return key if len(key) == 32 else None
    except OSError:
        return None


def _sign(command: Any) -> str | None:
    import hmac

    key = _key()
    if key is None:
        return None
    text = json.dumps(command, sort_keys=True, default=str).encode()
    return hmac.new(key, text, hashlib.sha256).hexdigest()


def _trusted(path: Path, meta: dict[str, Any]) -> bool:
    import hmac

    came = meta.get("origin") if isinstance(meta.get("origin"), dict) else {}
    want = came.get("signature")
    if isinstance(want, str):
        have = _sign(meta.get("command"))
        return have is not None and hmac.compare_digest(have, want)
    here = origin(path)  # no signature (no key where it was written): the same host and path
    return (came.get("host"), came.get("path")) == (here["host"], here["path"])


def read_meta(path: Path) -> dict[str, Any]:
    mp = path / "meta.json"
    if not mp.is_file():
        raise UserError(f"{path}: not a traindoc bundle (no meta.json)")
    try:
        meta = json.loads(mp.read_text())
    except (OSError, ValueError, RecursionError) as exc:
        raise UserError(f"{mp}: unreadable ({exc})") from None
    if not isinstance(meta, dict):
        raise UserError(f"{mp}: not a bundle description (a JSON object)")
    return meta


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ints(x: Any) -> bool:
    return x is None or (isinstance(x, list) and all(_is_int(i) for i in x))


def validate(path: Path, meta: dict[str, Any]) -> None:
    """The fields the replay reads, checked for type before anything runs: a damaged or
    hand-edited ``meta.json`` is one line here, not a traceback after the script re-ran."""
    def bad(field: str, want: str) -> UserError:
        return UserError(f"{path}/meta.json: {field} is not {want}")

    if not _is_int(meta.get("step")):
        raise bad("step", "an integer")
    for key in ("batches", "prev_batches"):
        v = meta.get(key)
        if v is None and key == "prev_batches":
            continue
        if not isinstance(v, list) or not all(isinstance(e, dict) for e in v):
            raise bad(key, "a list of batch descriptions")
        for e in v:
            if not (e.get("spec") is None or isinstance(e.get("spec"), dict)) or not _ints(e.get("indices")):
                raise bad(key, "a list of {spec, indices}")
    roots = meta.get("roots", [])
    if not isinstance(roots, list) or not all(
            isinstance(r, dict) and isinstance(r.get("prefix"), str) and isinstance(r.get("class"), str)
            and isinstance(r.get("keys"), list) and all(isinstance(k, str) for k in r["keys"]) for r in roots):
        raise bad("roots", "a list of {prefix, class, keys}")
    scales = meta.get("scaler_scales", [])
    if not isinstance(scales, list) or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                               for x in scales):
        raise bad("scaler_scales", "a list of numbers")
    loader = meta.get("loader")
    if loader is not None and (not isinstance(loader, dict) or not (
            loader.get("dataset") is None or isinstance(loader.get("dataset"), str)) or not (
            loader.get("length") is None or _is_int(loader.get("length")))):
        raise bad("loader", "{dataset, length}")
    for key in ("trigger",):
        if meta.get(key) is not None and not isinstance(meta[key], dict):
            raise bad(key, "an object")
    if meta.get("loader_prefetch_lag") is not None and not (
            _is_int(meta["loader_prefetch_lag"]) and 0 <= meta["loader_prefetch_lag"] <= 8):
        raise bad("loader_prefetch_lag", "an integer from 0 to 8")
    for key in ("earlier_step", "prev_step"):
        if meta.get(key) is not None and not _is_int(meta[key]):
            raise bad(key, "an integer")


def script_file(cmd: dict[str, Any]) -> Path:
    """The file the recorded command runs, under the recorded working directory."""
    cwd = Path(cmd.get("cwd") or ".")
    script = cmd["script"]
    if cmd.get("module"):
        base = cwd.joinpath(*script.split("."))
        for cand in (base.with_suffix(".py"), base / "__main__.py", base / "__init__.py"):
            if cand.is_file():
                return cand
        raise UserError(f"the bundle runs module {script!r}, which is not a file under its recorded "
                        f"cwd {cwd} on this machine; refusing to import it (replay only bundles you trust)")
    p = cwd / script
    if p.is_dir():
        p = p / "__main__.py"
    return p


def check(path: Path, meta: dict[str, Any], *, yes: bool = False, allow_changed: bool = False) -> str:
    """Refuse what must not run; returns the command line to show the user."""
    cmd = meta.get("command")
    if not isinstance(cmd, dict) or not isinstance(cmd.get("script"), str) or not cmd["script"]:
        raise UserError(f"{path}: the bundle does not say which script to re-run")
    args = cmd.get("args") or []
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise UserError(f"{path}: the bundle's script arguments are not a list of strings")
    if not isinstance(cmd.get("cwd"), str) or not Path(cmd["cwd"]).is_dir():
        raise UserError(f"{path}: the run's working directory {cmd.get('cwd')!r} is not there any more; "
                        f"the replay runs the script from there (restore it, or re-run the training)")
    f = script_file(cmd)
    if not f.is_file():
        raise UserError(f"{path}: the run's script {f} is not there any more")
    line = shlex.join(["python", *(["-m"] if cmd.get("module") else []), cmd["script"], *args]) + \
        f"  (cwd {cmd['cwd']})"
    want = cmd.get("sha256")
    if want and fingerprint(f) != want and not allow_changed:
        raise UserError(f"{path}: {f} changed since the run (SHA-256 differs); the replay would run other "
                        f"code than the step did. Re-run the training to capture the step again, or pass "
                        f"--allow-changed to replay with the script as it is now")
    came = meta.get("origin") if isinstance(meta.get("origin"), dict) else {}
    if not _trusted(path, meta) and not yes:
        where = (f"not signed by you here (written on {came.get('host')} at {came.get('path')}, or edited since)"
                 if came else "of unknown origin (no record of where it was written)")
        if sys.stdin.isatty() and sys.stderr.isatty():
            sys.stderr.write(f"traindoc replay: this bundle was {where}; replaying it runs:\n  {line}\n"
                             f"Run it? [y/N] ")
            sys.stderr.flush()
            if sys.stdin.readline().strip().lower() in ("y", "yes"):
                return line
        raise UserError(f"{path}: the bundle was {where}; replaying it runs `{line}`: pass --yes if you "
                        f"trust it")
    return line


def _single_process(env: dict[str, str]) -> None:
    """A rank's bundle from a torchrun job, replayed as a one-process job: the script's
    ``init_process_group`` then needs no other rank (DDP wraps a world of one; the
    bundled batch is that rank's). torchrun's agent variables are dropped."""
    import socket as _s

    for k in [k for k in env if k.startswith(("TORCHELASTIC_", "TORCH_ELASTIC"))]:
        del env[k]
    with _s.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env.update({"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "LOCAL_WORLD_SIZE": "1", "GROUP_RANK": "0",
                "ROLE_RANK": "0", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(port)})


def _env(scratch: Path, mode: str) -> dict[str, str]:
    env = dict(os.environ)
    tmp = scratch / "tmp"
    tmp.mkdir()
    root = str(Path(__file__).resolve().parent.parent.parent)  # traindoc importable from a checkout too
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    # caches and temporary files the script's libraries write go where writes are allowed
    env.update({"TMPDIR": str(tmp), "PYTHONDONTWRITEBYTECODE": "1", "TRAINDOC_SANDBOXED": mode,
                "TORCHINDUCTOR_CACHE_DIR": str(tmp / "inductor"), "TRITON_CACHE_DIR": str(tmp / "triton"),
                "MPLCONFIGDIR": str(tmp / "matplotlib")})
    return env


def replay(path: str | Path, *, json_out: bool = False, no_sandbox: bool = False, yes: bool = False,
           allow_changed: bool = False, quiet: bool = False, write: bool = True,
           timeout: float | None = None) -> tuple[int, dict[str, Any] | None]:
    """Replay the bundle at ``path`` in a sandboxed child process.

    Returns (exit code of the replay: 0, 1 when it found a cause of severity error, 2 bad
    input, 3 the sandbox failed; the forensics document or ``None``). The child's terminal
    output goes to this process's stdout/stderr unless ``quiet``; with ``write`` the
    results are moved into the bundle.
    """
    path = Path(path)
    meta = read_meta(path)
    if not meta.get("batches"):
        raise UserError(f"{path}: the step's batch was not recorded (it did not come from a "
                        f"DataLoader), so the step cannot be replayed")
    validate(path, meta)
    line = check(path, meta, yes=yes, allow_changed=allow_changed)
    mode, why = (None, "turned off with --no-sandbox") if no_sandbox else sandbox.available()
    if mode is None and os.environ.get(sandbox.ENV_ALLOW_NONE) == "1":
        no_sandbox = True  # the user accepted it for every replay (e.g. a CI job on its own scripts)
    if mode is None and not no_sandbox:
        raise UserError(f"no operating-system sandbox on this machine ({why}); the replay re-runs your "
                        f"script, which could then overwrite your files. Pass --no-sandbox to run it anyway")
    if not quiet:
        print(f"traindoc replay: re-running the recorded script ({f'{mode} sandbox' if mode else 'NO sandbox'}): "
              f"{line}", file=sys.stderr, flush=True)
    scratch = Path(tempfile.mkdtemp(prefix="traindoc-replay-"))
    try:
        out = scratch / "out"
        out.mkdir()
        args = ["-m", "traindoc", "replay", "--inside", str(out), str(path.resolve())]
        args += ["--json"] if json_out else []
        argv = sandbox.command(mode, str(scratch), args) if mode else [sys.executable, *args]
        pipe = subprocess.PIPE if quiet else None
        env = _env(scratch, mode or "off")
        world = meta.get("world_size")
        if isinstance(world, int) and world > 1:
            _single_process(env)
            if not quiet:
                print(f"traindoc replay: rank {meta.get('rank')} of a {world}-process job, replayed as one "
                      f"process (its bundled batch and weights)", file=sys.stderr, flush=True)
        r = subprocess.run(argv, env=env, stdout=pipe, stderr=pipe, text=True, timeout=timeout)
        res = None
        if (out / "forensics.json").is_file():
            res = json.loads((out / "forensics.json").read_text())
            if write:
                for name in OUTPUTS:
                    if (out / name).is_file():
                        atomic_write(path / name, (out / name).read_bytes())
        if r.returncode == 3 and mode:
            tail = (r.stderr or "").strip().splitlines()[-1:] if quiet else []
            raise UserError(f"the {mode} sandbox could not be set up{': ' + tail[0] if tail else ''}")
        if res is None and quiet and r.returncode not in (0, 1):
            tail = (r.stderr or r.stdout or "").strip().splitlines()[-1:]
            raise UserError(tail[0] if tail else f"the replay exited {r.returncode}")
        return r.returncode, res
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def replay_subprocess(bundle: str | Path, timeout: float = 900) -> str:
    """``traindoc replay BUNDLE`` in a fresh process (what ``traindoc run`` does after a
    trigger); returns its terminal output. Off, saying why, where no sandbox exists."""
    from .bundle import Bundle  # torch and numpy: only when a replay runs

    try:
        if not Bundle(bundle).meta.get("batches"):
            return (f"traindoc: bundle {bundle}: the step's batch did not come from a DataLoader; "
                    f"the step cannot be replayed\n")
    except UserError as exc:
        return f"traindoc: {exc}\n"
    mode, why = sandbox.available()
    if mode is None and os.environ.get(sandbox.ENV_ALLOW_NONE) != "1":
        return (f"traindoc: the automatic replay is off: no operating-system sandbox here ({why}).\n"
                f"  To replay anyway (it re-runs your script, whose writes then reach your files):\n"
                f"  traindoc replay --no-sandbox {bundle}\n")
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "traindoc", "replay", str(bundle)], capture_output=True,
                       text=True, timeout=timeout, env=env)
    out = r.stderr + r.stdout  # stderr first: the line saying what is re-run, and in which sandbox
    return out + ("" if r.returncode in (0, 1) else f"traindoc: replay exited {r.returncode}\n") + \
        f"(replay took {time.perf_counter() - t0:.1f} s)\n"

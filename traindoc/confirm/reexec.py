"""Re-execute the recorded script once, with one experiment's change (or none), in a
sandboxed child process (``python -m traindoc.confirm.child``) that writes only into its
scratch folder; the loss it reached comes back as a :class:`~.summary.Summary`. Used by
``traindoc confirm`` (a baseline and every variant), ``overfit``, ``lr-find`` and
``init-check``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..errors import UserError
from .registry import Variant
from .summary import Summary, read_run


def sandbox_mode(no_sandbox: bool, risk: str) -> str | None:
    """The sandbox every re-execution enters (None: none, accepted by --no-sandbox or
    TRAINDOC_ALLOW_UNSANDBOXED=1); one line and exit 2 otherwise, saying ``risk``."""
    from .. import sandbox

    mode, why = (None, "turned off with --no-sandbox") if no_sandbox else sandbox.available()
    if mode is None and not no_sandbox and os.environ.get(sandbox.ENV_ALLOW_NONE) != "1":
        raise UserError(f"no operating-system sandbox on this machine ({why}); {risk}. Pass --no-sandbox to run "
                        f"anyway")
    return mode


def _env(scratch: Path, mode: str | None, threads: int) -> dict[str, str]:
    from ..forensics.isolate import _env as replay_env

    env = replay_env(scratch, mode or "off")
    env.pop("TRAINDOC_REPLAYING", None)
    env["TRAINDOC_REPLAY"] = "0"
    for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[k] = str(threads)
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return env


def reexecute(key: str, variant: Variant | None, cmd: dict[str, Any], ctx: dict[str, Any], steps: int,
               seconds: float, mode: str | None, threads: int, world: Any, keep: Path | None = None,
               sample_every: int = 1_000_000) -> Summary:
    """One re-execution in a sandboxed child; ``keep``: copy its run folder there."""
    from .. import sandbox

    scratch = Path(tempfile.mkdtemp(prefix="traindoc-confirm-"))
    try:
        out = scratch / "out"
        out.mkdir()
        spec = {"out": str(out), "cwd": cmd["cwd"], "script": cmd["script"], "module": bool(cmd.get("module")),
                "args": list(cmd.get("args") or []), "steps": steps, "seconds": seconds, "threads": threads,
                "experiment": variant.experiment if variant else None,
                "params": dict(variant.params) if variant else {}, "ctx": ctx, "sample_every": sample_every}
        (out / "spec.json").write_text(json.dumps(spec))
        args = ["-m", "traindoc.confirm.child", str(out / "spec.json")]
        argv = sandbox.command(mode, str(scratch), args) if mode else [sys.executable, *args]
        env = _env(scratch, mode, threads)
        if isinstance(world, int) and world > 1:
            from ..forensics.isolate import _single_process

            _single_process(env)
        try:
            r = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=seconds * 2 + 60)
            tail = (r.stderr or "").strip().splitlines()[-1:] if r.returncode else []
            err = tail[0] if tail else None
        except subprocess.TimeoutExpired:
            err = f"killed after {seconds * 2 + 60:.0f} s"
        res: dict[str, Any] = {}
        if (out / "result.json").is_file():
            try:
                res = json.loads((out / "result.json").read_text())
            except ValueError:
                res = {}
        err = res.get("error") or err
        if keep is not None and (out / "run").is_dir():
            shutil.copytree(out / "run", keep)
        return read_run(out / "run", notes=res.get("notes"), error=err)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

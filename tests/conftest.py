import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Our own test scripts may be replayed without a sandbox on a machine that has none (a CI
# container without user namespaces or Landlock); where one exists it is used.
os.environ.setdefault("TRAINDOC_ALLOW_UNSANDBOXED", "1")
SCRIPTS = Path(__file__).resolve().parent / "scripts"

# Property tests draw the same examples on every run (a CI that fails must fail again on
# rerun); TRAINDOC_HYPOTHESIS=explore draws new ones, to look for bugs on purpose.
from hypothesis import settings as _hsettings  # noqa: E402

_hsettings.register_profile("deterministic", derandomize=True)
_hsettings.register_profile("explore", derandomize=False)
_hsettings.load_profile(os.environ.get("TRAINDOC_HYPOTHESIS", "deterministic"))


def _env():
    env = dict(os.environ)
    env["OMP_WAIT_POLICY"] = "PASSIVE"  # speed only
    env.setdefault("OMP_NUM_THREADS", "1")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def run_cli(*args, cwd=None, timeout=600, input=None, env=None):
    """Run ``python -m traindoc ARGS`` in a subprocess (``env``: variables to add); returns
    CompletedProcess (text)."""
    return subprocess.run([sys.executable, "-m", "traindoc", *map(str, args)], cwd=cwd, env={**_env(), **(env or {})},
                          capture_output=True, text=True, timeout=timeout, input=input)


def run_python(*args, cwd=None, timeout=600):
    return subprocess.run([sys.executable, *map(str, args)], cwd=cwd, env=_env(),
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def scripts():
    return SCRIPTS

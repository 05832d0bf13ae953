"""``traindoc run SCRIPT ARGS...``: run an unmodified script exactly as ``python SCRIPT
ARGS...`` would (same ``sys.argv``, ``__main__``, working directory, streams, exit code
and exceptions) with the monitor around it, then finalize the run folder whatever
happened (normal end, ``sys.exit``, an exception, Ctrl-C)."""

from __future__ import annotations

import os
import runpy
import sys
import traceback
from pathlib import Path
from typing import Any

from ..errors import UserError
from .capture import StopTraining
from .monitor import Monitor


class ScriptOutcome:
    def __init__(self, status: str, exit_code: int, exc: BaseException | None = None, tb: str | None = None):
        self.status = status
        self.exit_code = exit_code
        self.exc = exc
        self.tb = tb


def _exit_code(code: Any) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    return 1  # sys.exit("message") prints the message and exits 1


def _user_traceback(exc: BaseException) -> str:
    """The traceback as Python would print it for the script: traindoc's frames dropped."""
    tb = exc.__traceback__
    here = str(Path(__file__).resolve().parent.parent)
    runpy_file = runpy.__file__
    while tb is not None and (tb.tb_frame.f_code.co_filename.startswith(here)
                              or tb.tb_frame.f_code.co_filename == runpy_file):
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


def run_script(script: str, args: list[str], monitor: Monitor, module: bool = False) -> ScriptOutcome:
    if not module:
        path = Path(script)
        if not path.exists():
            raise UserError(f"{script}: no such script")
        if path.is_dir() and not (path / "__main__.py").exists():
            raise UserError(f"{script}: is a folder without __main__.py")
    old_argv, old_path0 = sys.argv[:], sys.path[0] if sys.path else None
    sys.argv = [script, *args]
    if not module:
        sys.path.insert(0, str(Path(script).resolve().parent))
    else:
        sys.path.insert(0, os.getcwd())
    monitor.start()
    outcome: ScriptOutcome
    try:
        if module:
            runpy.run_module(script, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(script, run_name="__main__")
        outcome = ScriptOutcome("finished", 0)
    except SystemExit as e:
        code = _exit_code(e.code)
        if e.code is not None and not isinstance(e.code, int):
            print(e.code, file=sys.stderr)
        outcome = ScriptOutcome("finished" if code == 0 else "exited", code, e)
    except KeyboardInterrupt as e:
        outcome = ScriptOutcome("interrupted", 130, e)
    except StopTraining as e:  # --stop-on: the bundle is written; the run ends here, as failed
        print(f"traindoc: {e}", file=sys.stderr)
        outcome = ScriptOutcome("stopped", 1, e)
    except BaseException as e:  # noqa: BLE001 - passed through after the run is finalized
        outcome = ScriptOutcome("crashed", 1, e, _user_traceback(e))
    finally:
        sys.argv = old_argv
        if sys.path and old_path0 is not None and sys.path[0] != old_path0:
            sys.path.pop(0)
    monitor.close(outcome.status, outcome.exit_code, outcome.tb)
    return outcome

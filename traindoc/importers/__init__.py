"""Turn what the user points ``diagnose`` at into a :class:`~traindoc.store.Run`."""

from __future__ import annotations

from pathlib import Path

from ..errors import UserError
from ..store.reader import Run, is_run_folder, open_run


def load_any(path: str | Path) -> Run:
    p = Path(path)
    if not p.exists():
        raise UserError(f"{p}: no such file or folder")
    if p.is_dir() and is_run_folder(p):
        return open_run(p)
    raise UserError(f"{p}: not a traindoc run folder")

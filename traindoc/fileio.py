"""Atomic file writes: a reader (or a crash) sees the old file or the new one, never half.

Write a temporary file in the target's folder, ``fsync`` it, rename it over the target,
``fsync`` the folder (so the rename itself survives a power loss). A target that exists
but is not a regular file (a symlink, FIFO, socket or device) is never replaced:
:class:`~traindoc.errors.UserError`, one line.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import UserError


def check_target(path: str | os.PathLike) -> Path:
    """Refuse a target that atomic replacement would destroy: a special file or a link."""
    p = Path(path)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return p
    if stat.S_ISLNK(st.st_mode):
        raise UserError(f"{p}: is a symbolic link; refusing to replace it (give the real path)")
    if stat.S_ISDIR(st.st_mode):
        raise UserError(f"{p}: is a folder")
    if not stat.S_ISREG(st.st_mode):
        raise UserError(f"{p}: is not a regular file (a FIFO, socket or device); refusing to replace it")
    return p


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, mode: int = 0o644) -> Iterator[str]:
    """A temporary path in ``path``'s folder for a writer that wants a file name (pyarrow's
    ``write_table``); when the block ends without an exception the file is synced and
    renamed over ``path`` (see the module docstring), otherwise deleted. The sync costs
    one ``fsync`` per file: milliseconds on a local disk, paid so that a crash never
    leaves a renamed but empty file."""
    out = check_target(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    os.close(fd)
    try:
        yield tmp
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # the rename is durable once the folder is synced
        dfd = os.open(out.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def atomic_write(path: str | os.PathLike, data: str | bytes, mode: int = 0o644) -> Path:
    """Write ``data`` to ``path`` atomically and durably (see the module docstring)."""
    with atomic_path(path, mode) as tmp, open(tmp, "wb") as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)
    return Path(path)

"""Atomic writes never replace a special file or follow a link; `report -o` refuses them."""

import os

import pytest

from conftest import run_cli
from traindoc.errors import UserError
from traindoc.fileio import atomic_path, atomic_write


def test_atomic_write_replaces_a_file_and_refuses_special_ones(tmp_path):
    p = tmp_path / "a.json"
    atomic_write(p, "one")
    atomic_write(p, b"two")
    assert p.read_text() == "two" and [x.name for x in tmp_path.iterdir()] == ["a.json"]
    fifo = tmp_path / "f.html"
    os.mkfifo(fifo)
    link = tmp_path / "l.html"
    link.symlink_to(p)
    for target, why in ((fifo, "not a regular file"), (link, "symbolic link"), (tmp_path, "folder")):
        with pytest.raises(UserError, match=why):
            atomic_write(target, "x")
    assert p.read_text() == "two" and fifo.is_fifo() and link.is_symlink()
    with pytest.raises(UserError, match="not a regular file"):
        atomic_write("/dev/null", "x")


def test_atomic_path_renames_on_success_and_removes_the_temporary_on_failure(tmp_path):
    p = tmp_path / "h.parquet"
    with atomic_path(p) as tmp:
        assert os.path.dirname(tmp) == str(tmp_path) and not p.exists()
        with open(tmp, "w") as fh:
            fh.write("one")
    assert p.read_text() == "one"
    with pytest.raises(RuntimeError), atomic_path(p) as tmp:
        with open(tmp, "w") as fh:
            fh.write("half")
        raise RuntimeError("killed")
    assert p.read_text() == "one" and [x.name for x in tmp_path.iterdir()] == ["h.parquet"]


def test_report_refuses_a_fifo_and_a_link_in_one_line(tmp_path):
    from test_run_folder import LOOP

    (tmp_path / "t.py").write_text(LOOP)
    assert run_cli("run", "--out", "r", "t.py", cwd=tmp_path).returncode == 0
    os.mkfifo(tmp_path / "f.html")
    (tmp_path / "l.html").symlink_to(tmp_path / "t.py")
    for name in ("f.html", "l.html"):
        r = run_cli("report", "r", "-o", name, cwd=tmp_path)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert (tmp_path / "f.html").is_fifo() and (tmp_path / "l.html").is_symlink()

"""Unreadable and special files: a finding when found by walking, one-line bad input when given by name."""

import os

import pytest

from traindoc.errors import UserError
from traindoc.lint.engine import lint_paths

TRIGGER = "import torch\ny = torch.log(torch.softmax(x, -1))\n"


def test_dangling_symlink_found_by_walking_is_a_finding_and_the_run_continues(tmp_path):
    (tmp_path / "gone.py").symlink_to(tmp_path / "missing.py")
    (tmp_path / "b.py").write_text(TRIGGER)
    res = lint_paths([str(tmp_path)])
    got = sorted((os.path.basename(f.location["file"]), f.name) for f in res.findings)
    assert got == [("b.py", "log-of-softmax"), ("gone.py", "unparsable-file")]
    (bad,) = [f for f in res.findings if f.name == "unparsable-file"]
    assert bad.message.startswith("cannot read: ") and bad.location["line"] == 1
    assert res.files == 2


def test_fifo_found_by_walking_is_a_finding_not_a_hang(tmp_path):
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "b.py").write_text(TRIGGER)
    fs = [f for f in lint_paths([str(tmp_path)]).findings if f.name == "unparsable-file"]
    assert len(fs) == 1 and fs[0].message == "cannot read: not a regular file"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_permission_denied_found_by_walking_is_a_finding(tmp_path):
    p = tmp_path / "secret.py"
    p.write_text(TRIGGER)
    p.chmod(0)
    (fs,) = lint_paths([str(tmp_path)]).findings
    assert fs.name == "unparsable-file" and fs.message.startswith("cannot read: ")


def test_explicit_bad_paths_stay_one_line_errors(tmp_path):
    (tmp_path / "gone.py").symlink_to(tmp_path / "missing.py")
    os.mkfifo(tmp_path / "pipe.py")
    with pytest.raises(UserError, match="gone.py: no such file or folder"):
        lint_paths([str(tmp_path / "gone.py")])
    with pytest.raises(UserError, match="pipe.py: not a regular file"):
        lint_paths([str(tmp_path / "pipe.py")])

"""A folder without Python is bad input, so a CI gate pointed at the wrong folder fails."""


import pytest

from traindoc.errors import UserError
from traindoc.lint.engine import lint_paths

TRIGGER = "import torch\ny = torch.log(torch.softmax(x, -1))\n"


def test_folder_without_python_is_bad_input(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "README.md").write_text("# x\n")
    (tmp_path / "docs" / ".venv").mkdir()
    (tmp_path / "docs" / ".venv" / "skipped.py").write_text(TRIGGER)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "ok.py").write_text(TRIGGER)
    with pytest.raises(UserError, match="empty: no \\*.py file found"):
        lint_paths([str(tmp_path / "empty")])
    with pytest.raises(UserError, match="docs: no \\*.py file found"):
        lint_paths([str(tmp_path / "src"), str(tmp_path / "docs")])  # one empty path among several
    assert len(lint_paths([str(tmp_path / "src")]).findings) == 1

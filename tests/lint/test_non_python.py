"""Non-Python files given by name are skipped with a note; end to end through the CLI."""

import os

import pytest

from tests.conftest import run_cli
from traindoc.errors import UserError
from traindoc.lint.engine import lint_paths

TRIGGER = "import torch\ny = torch.log(torch.softmax(x, -1))\n"


def test_non_python_files_given_by_name_are_skipped_with_a_note(tmp_path):
    (tmp_path / "README.md").write_text("# Title\n\nimport torch\ntorch.log(torch.softmax(x))\n")
    (tmp_path / "nb.ipynb").write_text('{"cells": [], "torch": "softmax log"}')
    (tmp_path / "train.py").write_text(TRIGGER)
    (tmp_path / "script").write_text("#!/usr/bin/env python3\n" + TRIGGER)  # pre-commit's types: [python]
    res = lint_paths([str(tmp_path / n) for n in ("README.md", "nb.ipynb", "train.py", "script")])
    assert sorted((os.path.basename(f.location["file"]), f.name) for f in res.findings) == [
        ("script", "log-of-softmax"), ("train.py", "log-of-softmax")]
    assert [n.split(":")[0] for n in res.skipped] == [str(tmp_path / "README.md")]  # a notebook is linted
    assert res.files == 3
    with pytest.raises(UserError, match="README.md: not a Python file"):
        lint_paths([str(tmp_path / "README.md")])


def test_cli_skip_note_deep_file_and_empty_folder(tmp_path):
    (tmp_path / "README.md").write_text("torch.log(torch.softmax(x))\n")
    (tmp_path / "deep.py").write_text("x = " + "- " * 5000 + "1\n" + TRIGGER)
    (tmp_path / "empty").mkdir()
    r = run_cli("lint", tmp_path / "README.md", tmp_path / "deep.py")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "deep.py:1:1 unparsable-file" in r.stdout and "README.md" not in r.stdout
    assert "skipped" in r.stderr and "README.md" in r.stderr
    r = run_cli("lint", tmp_path / "empty")
    assert r.returncode == 2 and r.stderr.strip().endswith("empty: no *.py file found"), r.stderr


def test_python_api_warns_about_a_skipped_file(tmp_path):
    import traindoc

    (tmp_path / "notes.txt").write_text("torch.log(torch.softmax(x))\n")
    (tmp_path / "train.py").write_text(TRIGGER)
    with pytest.warns(UserWarning, match="notes.txt: not a Python file"):
        fs = traindoc.lint([tmp_path / "notes.txt", tmp_path / "train.py"])
    assert [f.name for f in fs] == ["log-of-softmax"]

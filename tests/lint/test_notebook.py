"""Notebooks given by name: code cells linted as one script, findings located by cell."""

import json

from tests.conftest import run_cli
from traindoc.lint.engine import lint_paths


def _nb(tmp_path, cells, name="nb.ipynb"):
    p = tmp_path / name
    p.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": t, "metadata": {}, "source": src, **({"outputs": [], "execution_count": None} if t == "code" else {})}
        for t, src in cells]}))
    return p


def test_code_cells_are_one_script_and_findings_name_their_cell(tmp_path):
    p = _nb(tmp_path, [
        ("markdown", ["# Training\n", "torch.log(torch.softmax(x))\n"]),  # not code
        ("code", ["%matplotlib inline\n", "import torch\n", "!pip install foo\n"]),
        ("code", "%%time\ntorch.log(torch.softmax(x))\n"),  # a cell magic: not Python
        ("code", ["x = torch.randn(3)\n", "model?\n", "y = torch.log(torch.softmax(x, -1))\n"]),
        ("code", ["z = torch.log(\n", "    torch.softmax(x, -1))  # traindoc: ignore[log-of-softmax]\n"]),
    ])
    (f,) = lint_paths([str(p)]).findings
    assert (f.name, f.location["cell"], f.location["line"], f.location["col"]) == ("log-of-softmax", 4, 3, 5)
    assert f.evidence[0]["code"].startswith("y = torch.log")


def test_a_notebook_syntax_error_or_bad_json_is_one_finding(tmp_path):
    p = _nb(tmp_path, [("code", "import torch\n"), ("code", "def f(:\n    torch.log(torch.softmax(x))\n")])
    (f,) = lint_paths([str(p)]).findings
    assert (f.name, f.location["cell"], f.location["line"]) == ("unparsable-file", 2, 1)
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    (f,) = lint_paths([str(bad)]).findings
    assert f.name == "unparsable-file" and "not a Jupyter notebook" in f.message


def test_cli_text_names_the_cell(tmp_path):
    p = _nb(tmp_path, [("code", "import torch\n"), ("code", "y = torch.log(torch.softmax(x, -1))\n")])
    r = run_cli("lint", p)
    assert r.returncode == 1 and r.stdout.startswith(f"{p}:cell 2:1:5 log-of-softmax "), (r.stdout, r.stderr)
    r = run_cli("lint", p, "--format", "github")
    assert "(notebook cell 2, line 1)" in r.stdout, r.stdout

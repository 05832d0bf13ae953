"""Trees too deep for Python's parser or for the checker's walk: one finding, never a crash."""

import os

import pytest

from traindoc.lint.engine import lint_paths, lint_source

TRIGGER = "import torch\ny = torch.log(torch.softmax(x, -1))\n"


def _one_parse_finding(src: str, why: str) -> None:
    fs = lint_source((src + "\n" + TRIGGER).encode(), "deep.py")
    assert [f.name for f in fs] == ["unparsable-file"], fs
    assert why in fs[0].message and fs[0].severity == "error"


@pytest.mark.parametrize("src", [
    "x = " + " + ".join(f"a{i}" for i in range(3000)),  # a generated 3000-term sum
    "x = " + "- " * 5000 + "1",  # unary minus thousands deep
])
def test_too_deep_to_parse_is_one_finding(src):
    _one_parse_finding(src, "too deeply nested")


@pytest.mark.parametrize("make", [
    lambda n: "x = torch.exp(" + " + ".join(f"a{i}" for i in range(n)) + ")",
    lambda n: "x = " + "lambda: " * n + "1",
    lambda n: "x = a" + ".b" * n + ".exp()",
])
def test_parses_but_too_deep_to_walk_is_one_finding(make):
    # the deepest tree Python's parser still accepts, which is deeper than the checker's walk
    import ast
    lo, hi = 100, 20000
    while lo < hi:
        m = (lo + hi + 1) // 2
        try:
            ast.parse(make(m))
            lo = m
        except (RecursionError, SyntaxError, MemoryError):
            hi = m - 1
    _one_parse_finding(make(lo), "too deeply nested")


def test_a_too_deep_file_does_not_lose_the_other_files(tmp_path):
    (tmp_path / "a_deep.py").write_text("x = " + "- " * 5000 + "1\n" + TRIGGER)
    (tmp_path / "b.py").write_text(TRIGGER)
    names = sorted((os.path.basename(f.location["file"]), f.name) for f in lint_paths([str(tmp_path)]).findings)
    assert names == [("a_deep.py", "unparsable-file"), ("b.py", "log-of-softmax")]

"""In-process checks: name resolution, documentation, registry, suppressions, API."""

import importlib
import re

import pytest

import traindoc
from traindoc.lint import lint, lint_source
from traindoc.lint.docs import docs
from traindoc.lint.registry import load_all
from traindoc.taxonomy import CAUSE, TAXONOMY

SECTIONS = ("What it detects:", "Why it happens:", "Example:", "How to fix:", "How to confirm:")


def names(src: str) -> list[tuple[int, str]]:
    return [(f.location["line"], f.name) for f in lint_source(src, "t.py")]


def test_docs_have_the_same_sections_in_order():
    d = docs()
    assert set(d) == {*load_all(), "unparsable-file"}
    for name, doc in d.items():
        pos = [doc.find(s) for s in SECTIONS]
        assert all(p >= 0 for p in pos) and pos == sorted(pos), name


def test_names_codes_and_kinds():
    rules = load_all()
    codes = [r.code for r in rules.values()]
    assert len(set(codes)) == len(codes)
    assert all(re.fullmatch(r"TD5\d\d", c) for c in codes)
    for n, r in rules.items():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", n)
        e = TAXONOMY[n]
        assert (e.code, e.family, e.kind) == (r.code, "lint", CAUSE)
        assert r.severity in ("error", "warning", "info") and r.fix and r.confirm


def test_lint_is_public_and_all_sorted():
    assert "lint" in traindoc.__all__ and traindoc.__all__ == sorted(traindoc.__all__)
    importlib.import_module("traindoc.lint.engine")  # binds the package to traindoc.lint: still callable
    assert callable(traindoc.lint)


@pytest.mark.parametrize("src", [
    "import torch\ny = torch.log(torch.softmax(x, -1))",
    "import torch.nn.functional as F\ny = F.softmax(x, -1).log()",
    "from torch import softmax\ny = softmax(x, 0)\nz = y.log()",
    "y = x.softmax(-1).log()",                                   # a method on anything
    "import torch\nfrom torch import nn\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.s = nn.Softmax(-1)\n    def forward(self, x):\n        return torch.log(self.s(x))",
    "import torch\nsm = torch.nn.functional.softmax\ny = torch.log(sm(x, -1))",
    "import torch\nfrom torch import nn\nclass P(nn.Module):\n    def forward(self, o):\n"
    "        return torch.softmax(o, -1)\ndef act(policy: P, o):\n    return torch.log(policy(o))",  # annotation
])
def test_resolution_through_imports_aliases_methods_modules(src):
    assert [n for _, n in names(src)] == ["log-of-softmax"]


@pytest.mark.parametrize("src", [
    "import torch\ny = torch.log(torch.softmax(x, -1) + 1e-8)",
    "import torch\np = torch.softmax(x, -1)\np = p.clamp_min(1e-8)\ny = torch.log(p)",
    "import torch\nif c:\n    p = torch.softmax(x, -1)\nelse:\n    p = q\ny = torch.log(p)",   # not provable
    "from mylib import softmax\nimport torch\ny = torch.log(softmax(x))",                   # not torch's
    "import torch\ny = torch.log(x)",
])
def test_not_provable_is_not_flagged(src):
    assert names(src) == []


def test_suppression_by_name_code_and_bare():
    base = "import torch\na = torch.log(torch.softmax(x, -1)){}\n"
    assert names(base.format("")) == [(2, "log-of-softmax")]
    for c in ("  # traindoc: ignore[log-of-softmax]", "  # traindoc: ignore[TD501]", "  # traindoc: ignore",
              "  # traindoc: ignore[unguarded-zero, log-of-softmax]"):
        assert names(base.format(c)) == [], c
    assert names(base.format("  # traindoc: ignore[unguarded-zero]")) == [(2, "log-of-softmax")]
    assert names(base.format("  # 'traindoc: ignore' in a string does not count"))[0][1] == "log-of-softmax"


def test_syntax_error_is_a_finding():
    fs = lint_source(b"import torch\ndef f(:\n  torch.log(torch.softmax(x))\n", "bad.py")
    assert [(f.name, f.severity, f.location["line"]) for f in fs] == [("unparsable-file", "error", 2)]


def test_gradient_accumulation_that_clears_is_fine_and_one_that_does_not_is_flagged():
    loop = ("for i, b in enumerate(loader):\n    loss = model(b) / 4\n    loss.backward()\n"
            "    if (i + 1) % 4 == 0:\n        optimizer.step()\n{}")
    assert names(loop.format("        optimizer.zero_grad()\n")) == []
    assert names(loop.format("")) == [(5, "gradients-never-cleared")]


def test_lint_api_on_paths(tmp_path):
    (tmp_path / "a.py").write_text("import torch\nz = torch.log(torch.softmax(x, -1))\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.py").write_text("x = 1\n")
    (tmp_path / "notes.txt").write_text("torch.log(torch.softmax(x))\n")
    fs = traindoc.lint(tmp_path)
    assert [(f.name, f.location["file"].endswith("a.py")) for f in fs] == [("log-of-softmax", True)]
    assert lint(str(tmp_path / "sub")) == []


def test_a_parameter_takes_the_kind_every_call_site_agrees_on():
    src = ("import torch\ndef nll(p, y):\n    return -torch.log(p[y])\n"
           "a = nll(torch.softmax(x, -1), 0)\nb = nll(torch.softmax(z, -1), 1)\n")
    assert names(src) == [(3, "log-of-softmax")]
    assert names(src + "c = nll(z, 2)\n") == []            # one call passes something else: unknown
    assert names(src + "c = nll(*args)\n") == []           # cannot tell where arguments land


def test_findings_do_not_depend_on_which_rules_run():
    """Kinds are memoised across rules: each rule alone must give what it gives among all."""
    from pathlib import Path

    from traindoc.lint.engine import lint_source as run

    root = Path(__file__).resolve().parents[2]
    files = sorted((root / "bench" / "lint_corpus").glob("*.py")) + sorted((root / "tests" / "lint" / "fixtures").rglob("*.py"))
    rules = load_all()
    for f in files:
        src = f.read_bytes()
        together = {(x.name, x.location["line"], x.location["col"]) for x in run(src, str(f), rules)}
        alone = set()
        for n, r in rules.items():
            alone |= {(x.name, x.location["line"], x.location["col"]) for x in run(src, str(f), {n: r})}
        alone |= {x for x in together if x[0] == "unparsable-file"}
        assert together == alone, f.name


def test_processes_give_the_same_findings_as_one(tmp_path):
    from pathlib import Path

    from traindoc.lint.engine import lint_paths

    fixtures = Path(__file__).resolve().parent / "fixtures" / "rules"
    for i, f in enumerate(sorted(fixtures.glob("*.py")) * 3):
        (tmp_path / f"{i:03d}_{f.name}").write_bytes(f.read_bytes())
    key = [(x.location["file"], x.location["line"], x.location["col"], x.name)
           for x in lint_paths([str(tmp_path)], jobs=1).findings]
    assert key and key == [(x.location["file"], x.location["line"], x.location["col"], x.name)
                           for x in lint_paths([str(tmp_path)], jobs=2).findings]


def test_undecodable_and_null_byte_files_are_parse_findings():
    for src in (b"import torch\nx = '\xff\xfe'\ntorch.log(torch.softmax(x))\n",
                b"import torch\x00\ntorch.log(torch.softmax(x))\n"):
        assert [f.name for f in lint_source(src, "bad.py")] == ["unparsable-file"]


def test_columns_count_characters_not_utf8_bytes():
    src = 'import torch\ns = "é"; y = torch.log(torch.softmax(x, -1))\n'
    (f,) = lint_source(src, "u.py")
    assert (f.location["line"], f.location["col"]) == (2, 14)
    assert f.evidence[0]["code"].startswith('s = "é"')

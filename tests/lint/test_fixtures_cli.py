"""End to end through the CLI: one fixture per rule with its expected lines, clean fixtures,
output formats, exit codes and bad input. Each CLI call imports torch (seconds), so the
fixtures are checked in as few calls as possible."""

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli
from traindoc.cli import main
from traindoc.lint.registry import load_all

HERE = Path(__file__).resolve().parent
RULES = HERE / "fixtures" / "rules"
CLEAN = HERE / "fixtures" / "clean"


def _expected() -> dict[str, set[str]]:
    out = {}
    for txt in sorted(RULES.glob("*.txt")):
        out[txt.stem + ".py"] = {ln.strip() for ln in txt.read_text().splitlines() if ln.strip()}
    return out


def _parse_text(stdout: str) -> dict[str, set[str]]:
    got: dict[str, set[str]] = {}
    for line in stdout.splitlines():
        loc, name, _msg = line.split(" ", 2)
        path, ln, col = loc.rsplit(":", 2)
        got.setdefault(Path(path).name, set()).add(f"{ln}:{col} {name}")
    return got


@pytest.fixture(scope="module")
def rules_text():
    return run_cli("lint", RULES)


def test_every_rule_has_a_fixture():
    names = {*load_all(), "unparsable-file"}
    assert {p.stem for p in RULES.glob("*.py")} == names
    assert {p.stem for p in RULES.glob("*.txt")} == names


def test_rule_fixtures_give_exactly_their_expected_lines(rules_text):
    assert rules_text.returncode == 1, rules_text.stderr
    got = _parse_text(rules_text.stdout)
    for fname, want in _expected().items():
        assert got.get(fname, set()) == want, fname
        # a fixture only triggers its own rule
        assert {w.split(" ")[1] for w in got.get(fname, set())} == {fname[:-3]}
    assert set(got) == set(_expected())
    assert "finding(s)" in rules_text.stderr


def test_syntax_error_is_one_finding_and_the_other_files_still_run(rules_text):
    lines = [ln for ln in rules_text.stdout.splitlines() if "unparsable-file" in ln]
    assert len(lines) == 1 and "cannot parse" in lines[0]
    assert "Traceback" not in rules_text.stderr


def test_clean_fixtures_give_nothing():
    r = run_cli("lint", CLEAN, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads(r.stdout)
    assert doc["findings"] == [], [(f["location"], f["name"]) for f in doc["findings"]]
    assert doc["files"] == len(list(CLEAN.glob("*.py")))


def test_json_contract():
    r = run_cli("lint", RULES / "log-of-softmax.py", RULES / "dataloader-blocking.py", "--json")
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    assert doc["version"] == 1 and doc["causes"] == [] and doc["symptoms"] == []
    fs = doc["findings"]
    assert {f["name"] for f in fs} == {"log-of-softmax", "dataloader-blocking"}
    for f in fs:
        assert f["code"].startswith("TD5") and f["severity"] in ("error", "warning", "info")
        loc = f["location"]
        assert Path(loc["file"]).name in ("log-of-softmax.py", "dataloader-blocking.py")
        assert loc["line"] >= 1 and loc["col"] >= 1 and "column" not in loc   # "column" is a data column
        assert f["message"] and f["fix"]
        assert f["evidence"][0]["code"]                  # the source line
    info = [f for f in fs if f["name"] == "dataloader-blocking"]
    assert info and all(f["severity"] == "info" for f in info)


def _main(capsys, *args):
    """The CLI in-process (same parser and handler; no torch import per call)."""
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_info_and_warning_alone_exit_zero(capsys):
    code, out, _ = _main(capsys, "lint", RULES / "dataloader-blocking.py", RULES / "unguarded-zero.py",
                         "--format", "github")
    assert code == 0
    lines = out.splitlines()
    assert lines and all(ln.startswith(("::warning file=", "::notice file=")) for ln in lines)
    assert any("title=unguarded-zero (TD505)" in ln and ",line=9,col=12," in ln for ln in lines)


def test_sarif(capsys):
    code, out, _ = _main(capsys, "lint", RULES / "unshifted-softmax.py", "--format", "sarif")
    assert code == 1
    doc = json.loads(out)
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert {"TD501", "TD502", "TD510"} <= {x["id"] for x in rules}
    res = run["results"]
    assert len(res) == 3 and all(x["ruleId"] == "TD502" and x["level"] == "error" for x in res)
    for x in res:
        assert rules[x["ruleIndex"]]["id"] == x["ruleId"]
        region = x["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1


def test_missing_path_is_one_line_and_exit_2():
    r = run_cli("lint", RULES, "no/such/file.py")
    assert r.returncode == 2
    assert r.stdout == "" and r.stderr.strip() == "traindoc: error: no/such/file.py: no such file or folder"


@pytest.mark.parametrize("args, words", [
    (["lint"], "at least one"),
    (["lint", str(RULES), "--select", "no-such-rule"], "not a lint rule"),
    (["lint", str(RULES), "--jobs", "0"], "at least 1"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, args, words):
    code, out, err = _main(capsys, *args)
    assert code == 2
    assert out == "" and len(err.strip().splitlines()) == 1 and words in err


def test_select_and_ignore(capsys):
    code, out, _ = _main(capsys, "lint", RULES, "--select", "TD509,summed-loss-step", "-q")
    assert code == 0 and {ln.split(" ")[1] for ln in out.splitlines()} == {"dataloader-blocking", "summed-loss-step"}
    code, out, _ = _main(capsys, "lint", RULES, "--ignore", "unparsable-file", "--ignore", "TD501", "-q")
    assert "log-of-softmax" not in out and "unparsable-file" not in out and "unshifted-softmax" in out


def test_explain_prints_the_rule_doc(capsys):
    code, out, _ = _main(capsys, "explain", "gradients-never-cleared")
    assert code == 0
    for section in ("What it detects:", "Why it happens:", "Example:", "How to fix:", "How to confirm:"):
        assert section in out
    assert "TD506" in out


def test_pre_commit_hook_entry_runs(capsys):
    """The hook in .pre-commit-hooks.yaml: pre-commit appends the staged file names to `entry`."""
    text = (HERE.parent.parent / ".pre-commit-hooks.yaml").read_text()
    block = text[text.index("- id: traindoc-lint"):]
    entry = next(ln.split(":", 1)[1].strip() for ln in block.splitlines() if ln.strip().startswith("entry:"))
    assert "language: python" in block and "types: [python]" in block
    prog, *args = entry.split()
    assert prog == "traindoc"
    code, out, err = _main(capsys, *args, RULES / "unshifted-softmax.py", CLEAN / "gan_two_optimizers.py")
    assert code == 1 and err == "" and len(out.splitlines()) == 3

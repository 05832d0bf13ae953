"""bench/lint_real.py and bench/lint_recall.py: the manifest, the verdicts and the recall
labels parse, and a corpus is read from a git mirror (a throwaway local repository: no
network, no real mirror needed)."""

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


real = _load("lint_real")
recall = _load("lint_recall")
SHA = "a" * 40


def test_committed_manifest_and_verdicts_are_consistent():
    entries = real.load_manifest()
    assert sum(len(e["paths"]) for e in entries) >= 300
    assert len({e["repo"] for e in entries}) >= 10
    verdicts = real.load_verdicts()
    files = {(e["repo"], e["commit"], p) for e in entries for p in e["paths"]}
    for key in verdicts:
        repo, commit, path, line, rule = real.parse_key(key)
        assert (repo, commit, path) in files, key   # a verdict for a file the corpus no longer has
        assert line >= 1 and rule


@pytest.mark.parametrize("bad, why", [
    ({"repos": [{"repo": "nope", "commit": SHA, "paths": ["a.py"]}]}, "owner/name"),
    ({"repos": [{"repo": "a/b", "commit": "HEAD", "paths": ["a.py"]}]}, "40-hex"),
    ({"repos": [{"repo": "a/b", "commit": SHA, "paths": []}]}, "non-empty"),
    ({"repos": [{"repo": "a/b", "commit": SHA, "paths": ["../x.py"]}]}, "inside the repository"),
    ({"repos": [{"repo": "a/b", "commit": SHA, "paths": ["x.py"]}] * 2}, "twice"),
    ([], "expected"),
])
def test_bad_manifest_is_refused(tmp_path, bad, why):
    p = tmp_path / "m.json"
    p.write_text(json.dumps(bad))
    with pytest.raises(real.BenchError, match=why):
        real.load_manifest(p)


def test_keys_verdicts_and_precision(tmp_path):
    key = real.finding_key("a/b", SHA, "dir/train file.py", 12, "unguarded-zero")
    assert real.parse_key(key) == ("a/b", SHA, "dir/train file.py", 12, "unguarded-zero")
    with pytest.raises(ValueError):
        real.parse_key("a/b@HEAD:x.py:1:rule")
    vp = tmp_path / "v.json"
    vp.write_text(json.dumps({key: {"verdict": "maybe", "reason": "x"}}))
    with pytest.raises(real.BenchError, match="verdict"):
        real.load_verdicts(vp)
    other = real.finding_key("a/b", SHA, "x.py", 3, "unguarded-zero")
    real.save_verdicts({key: {"verdict": "tp", "reason": "r"}, other: {"verdict": "fp", "reason": "r"}}, vp)
    v = real.load_verdicts(vp)
    unrev = real.finding_key("a/b", SHA, "y.py", 1, "unguarded-zero")
    table = real.precision_table([(key, "unguarded-zero"), (other, "unguarded-zero"), (unrev, "unguarded-zero")], v)
    assert table["unguarded-zero"] == {"findings": 3, "tp": 1, "fp": 1, "unreviewed": 1, "precision": 0.5}
    assert real.load_verdicts(tmp_path / "absent.json") == {}


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_materialise_from_a_mirror_and_name_what_is_missing(tmp_path, monkeypatch):
    src = tmp_path / "src"
    src.mkdir()
    (src / "sub").mkdir()
    (src / "sub" / "train.py").write_text("import torch\nloss.backward()\n")
    (src / "b.py").write_bytes(b"x = 1\n\x00binary-ish\n")
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
           "HOME": str(tmp_path), "PATH": __import__("os").environ["PATH"]}
    run = lambda *a: subprocess.run(["git", *a], cwd=src, check=True, capture_output=True, env=env).stdout
    run("init", "-q")
    run("add", ".")
    run("commit", "-q", "-m", "x")
    commit = run("rev-parse", "HEAD").decode().strip()
    mirrors = tmp_path / "mirrors"
    (mirrors / "own+repo").mkdir(parents=True)
    shutil.copytree(src / ".git", mirrors / "own+repo" / "repo")
    monkeypatch.setattr(real, "MIRRORS", mirrors)
    cache = tmp_path / "cache"
    entries = [{"repo": "own/repo", "commit": commit, "paths": ["sub/train.py", "b.py"]}]
    files = real.materialise(entries, cache)
    assert [(r, p) for r, _, p, _ in files] == [("own/repo", "sub/train.py"), ("own/repo", "b.py")]
    assert files[0][3].read_text() == "import torch\nloss.backward()\n"
    assert files[1][3].read_bytes() == b"x = 1\n\x00binary-ish\n"
    assert real.materialise(entries, cache) == files   # the second time from the cache
    with pytest.raises(real.BenchError, match="not in that commit"):
        real.materialise([{"repo": "own/repo", "commit": commit, "paths": ["nope.py"]}], tmp_path / "c2")
    with pytest.raises(real.BenchError, match="fetch github:other/repo"):
        real.materialise([{"repo": "other/repo", "commit": SHA, "paths": ["x.py"]}], tmp_path / "c3")
    with pytest.raises(real.BenchError, match="own/repo@bbbbbbbbbbbb"):
        real.materialise([{"repo": "own/repo", "commit": "b" * 40, "paths": ["x.py"]}], tmp_path / "c4")
    assert real.main(["--manifest", str(tmp_path / "none.json")]) == 2


def test_recall_corpus_is_labelled_and_linked():
    files, labelled, sources = recall.labels()
    assert len(files) >= 40 and len(labelled) >= 40
    assert all(str(f) in sources for f in files)   # every file names its public source
    assert all(s.startswith("https://") for s in sources.values())
    per, fps, misses = recall.score([(f, ln, r) for f, ln, r in labelled][:1] + [("x.py", 1, "r")], labelled)
    assert sum(h for h, _ in per.values()) == 1 and fps == [("x.py", 1, "r")] and len(misses) == len(labelled) - 1


def test_recall_sources_from_the_readme_table(tmp_path):
    """Later corpora keep each file's source on its row of the README table, not in a
    `# Source:` line: both count."""
    (tmp_path / "01_a.py").write_text("import torch\nx = torch.log(p)  # expect: unguarded-zero\n")
    (tmp_path / "02_b.py").write_text("# Source: https://example.org/two\nimport torch\n")
    (tmp_path / "README.md").write_text("| file | label(s) | source |\n|---|---|---|\n"
                                        "| 01_a.py | unguarded-zero | https://github.com/o/r/commit/abc (fix) |\n")
    files, labelled, sources = recall.labels(tmp_path)
    assert sources == {str(tmp_path / "01_a.py"): "https://github.com/o/r/commit/abc",
                       str(tmp_path / "02_b.py"): "https://example.org/two"}
    assert labelled == {(str(tmp_path / "01_a.py"), 2, "unguarded-zero")}

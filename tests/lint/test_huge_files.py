"""A file over lint's size limit (generated code) is skipped with a note, not parsed:
a 100 000-line file took 1.2 GB."""

from conftest import run_cli
from traindoc.lint.engine import MAX_BYTES, collect_paths


def test_a_huge_file_is_skipped_with_a_note(tmp_path):
    big = tmp_path / "gen.py"
    line = b"x = torch.log(torch.softmax(y, -1))\n"
    big.write_bytes(b"import torch\n" + line * (MAX_BYTES // len(line) + 1))
    (tmp_path / "ok.py").write_text("import torch\ny = torch.log(torch.softmax(x, -1))\n")
    files, skipped = collect_paths([str(tmp_path)])
    assert files == [str(tmp_path / "ok.py")] and "gen.py" in skipped[0] and "limit" in skipped[0]
    r = run_cli("lint", tmp_path)
    assert r.returncode == 1 and "ok.py:2" in r.stdout and "gen.py" in r.stderr
    r = run_cli("lint", big)  # given alone: nothing to lint
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "limit" in r.stderr

"""Inputs that must give one line and exit 2 (or a warning), never a hang, a crash or a
traceback: special files, absurdly nested JSON, an unusable or damaged cache."""

import os

import pytest

pytest.importorskip("pyarrow")
from conftest import _env, run_cli  # noqa: E402


def test_a_fifo_is_refused_not_read_forever(tmp_path):
    fifo = tmp_path / "x.csv"
    os.mkfifo(fifo)
    r = run_cli("data", "check", fifo, timeout=120)
    assert r.returncode == 2 and "not a regular file" in r.stderr and r.stderr.count("\n") == 1
    (tmp_path / "ok.csv").write_text("a,b\n1,2\n3,4\n")
    r = run_cli("data", "check", tmp_path, "--no-cache", timeout=120)  # a folder: the FIFO is skipped
    assert r.returncode == 0 and "2 rows" in r.stdout, r.stderr


@pytest.mark.parametrize("depth", [100, 100_000])
def test_deeply_nested_json_is_refused_before_parsing(tmp_path, depth):
    p = tmp_path / "deep.jsonl"
    p.write_text('{"a": 1}\n{"a": ' + "[" * depth + "]" * depth + "}\n")
    r = run_cli("data", "check", p, "--no-cache", timeout=120)
    assert r.returncode == 2 and "deep.jsonl:2: JSON nested more than 64 levels" in r.stderr
    assert r.stderr.count("\n") == 1


def test_brackets_inside_strings_are_not_nesting(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_text("".join('{"a": "%s", "b": %d}\n' % ("[{" * 50, i) for i in range(50)))
    r = run_cli("data", "check", p, "--no-cache", timeout=120)
    assert r.returncode == 0 and "50 rows" in r.stdout, r.stderr


def test_an_unusable_or_damaged_cache_only_warns(tmp_path):
    data = tmp_path / "t.csv"
    data.write_text("a,b\n" + "".join(f"{i},{i % 3}\n" for i in range(200)))
    env = _env()
    import subprocess
    import sys

    def check(cache_home):
        env["XDG_CACHE_HOME"] = str(cache_home)
        return subprocess.run([sys.executable, "-m", "traindoc", "data", "check", str(data), "--json"],
                              env=env, capture_output=True, text=True, timeout=300)

    r = check("/proc/traindoc-no-cache")
    assert r.returncode == 0 and "cache" in r.stderr and "checking without it" in r.stderr
    first = check(tmp_path / "c")
    assert first.returncode == 0 and first.stderr == ""
    for f in (tmp_path / "c").rglob("*.json"):
        f.write_bytes(b"\x00garbage")  # damaged entries
    again = check(tmp_path / "c")
    assert again.returncode == 0 and "unreadable" in again.stderr
    import json

    strip = lambda d: {k: v for k, v in json.loads(d).items() if k not in ("stats",)}  # noqa: E731
    assert strip(again.stdout)["findings"] == strip(first.stdout)["findings"]


@pytest.mark.parametrize("text,line", [("null\n", 1), ('{"a": 1}\n[1, 2]\n', 2), ('{"a": 1}\n  "x"\n', 2)])
def test_a_line_that_is_not_an_object_is_refused(tmp_path, text, line):
    """pyarrow 26's JSON reader crashes the process (SIGSEGV) on a line `null`."""
    p = tmp_path / "x.jsonl"
    p.write_text(text)
    r = run_cli("data", "check", p, "--no-cache", timeout=120)
    assert r.returncode == 2 and f"x.jsonl:{line}: not a JSON object" in r.stderr, (r.returncode, r.stderr)


def test_boolean_and_large_unsigned_columns_are_checked(tmp_path):
    """A boolean column (with a null) crashed the row hashes; a uint64 above 2**63 too."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"u": pa.array([2**64 - 1, 1, 2, 1], pa.uint64()), "b": [True, None, False, True]}),
                   tmp_path / "t.parquet")
    r = run_cli("data", "check", tmp_path / "t.parquet", "--no-cache", timeout=120)
    assert r.returncode in (0, 1) and "4 rows, 2 columns" in r.stdout, r.stderr
    (tmp_path / "b.jsonl").write_text('{"a": false}\n{"a": true}\n')
    r = run_cli("data", "check", tmp_path / "b.jsonl", "--no-cache", timeout=120)
    assert r.returncode in (0, 1) and "2 rows, 1 columns" in r.stdout, r.stderr

"""The command line around the checks: bad input is one line and exit 2, CI output
(GitHub annotations, JSON), thresholds from pyproject.toml, the HTML report, the cache."""

import json

import numpy as np
import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")
from conftest import run_cli  # noqa: E402
from datafix import clean, load, planted, write  # noqa: E402


def _one_line_error(r, *needles):
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("traindoc: error:"), r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    for n in needles:
        assert n in lines[0]


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    good = write(tmp_path / "t.parquet", clean(200))
    (tmp_path / "broken.parquet").write_bytes(b"PAR1 this is not parquet")
    (tmp_path / "bad.toml").write_text("[data]\noutlier_kk = 3\n")
    _one_line_error(run_cli("data", "check", tmp_path / "missing.parquet"), "missing.parquet", "no such file")
    _one_line_error(run_cli("data", "check", good, "--label", "nope"), "--label nope", "no such column")
    _one_line_error(run_cli("data", "check", tmp_path / "broken.parquet", "--no-cache"), "broken.parquet")
    _one_line_error(run_cli("data", "check", good, "--config", tmp_path / "bad.toml"), "outlier_kk")


def test_github_annotations_and_thresholds_from_pyproject(tmp_path):
    args, _ = planted("data-outlier", tmp_path)
    r = run_cli("data", "check", *args, "--format", "github", "--no-cache", cwd=tmp_path)
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    assert any(line.startswith("::error file=train.parquet,title=traindoc data-outlier (TD") for line in lines)
    # per-column overrides: a cap on seq that the 500-long row breaks, c's outliers off
    (tmp_path / "pyproject.toml").write_text(
        "[tool.traindoc.data.columns.seq]\nmax_length = 600\n"
        "[tool.traindoc.data.columns.c]\nignore = ['data-outlier']\n")
    r = run_cli("data", "check", *args, "--json", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert load(r.stdout)["findings"] == []
    (tmp_path / "pyproject.toml").write_text("[tool.traindoc.data.severity]\ndata-outlier = 'warning'\n")
    r = run_cli("data", "check", *args, "--json", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0 and {f["severity"] for f in load(r.stdout)["findings"]} == {"warning"}


def test_html_escapes_and_cache_skips_the_scan(tmp_path):
    d = clean(500)
    d["<img src=x onerror=alert(1)>"] = np.r_[np.nan, np.zeros(499)]
    path = write(tmp_path / "t.parquet", d)
    html, cache = tmp_path / "r.html", tmp_path / "cache"
    r = run_cli("data", "check", path, "--html", html, "--json", "--cache-dir", cache)
    assert r.returncode == 1
    page = html.read_text()
    assert "<img src=x" not in page and "&lt;img src=x" in page and "<svg" in page
    first = load(r.stdout)
    r2 = run_cli("data", "check", path, "--json", "--cache-dir", cache)
    again = load(r2.stdout)
    assert again["data"]["stats"]["cached_units"] == again["data"]["stats"]["units"] == 1
    assert again["findings"] == first["findings"]
    write(tmp_path / "t.parquet", clean(500))  # changed file: scanned again
    r3 = load(run_cli("data", "check", path, "--json", "--cache-dir", cache).stdout)
    assert r3["data"]["stats"]["cached_units"] == 0 and r3["findings"] == []


def test_json_contract_fields(tmp_path):
    args, _ = planted("data-nonfinite", tmp_path)
    r = run_cli("data", "check", *args, "--json", "--no-cache")
    doc = json.loads(r.stdout)
    assert doc["version"] == 1 and doc["causes"] == [] and doc["symptoms"] == []
    f = doc["findings"][0]
    assert set(f) >= {"name", "code", "severity", "message", "location", "evidence", "fix", "confirm"}
    assert set(f["location"]) >= {"column", "rows", "file"}


def test_without_the_data_extra_one_line(tmp_path):
    import os
    import subprocess
    import sys

    from conftest import ROOT

    fake = tmp_path / "fake"
    (fake / "pyarrow").mkdir(parents=True)
    (fake / "pyarrow" / "__init__.py").write_text("raise ImportError('no pyarrow here')\n")
    env = dict(os.environ, PYTHONPATH=f"{fake}{os.pathsep}{ROOT}")
    r = subprocess.run([sys.executable, "-m", "traindoc", "data", "check", str(tmp_path)], env=env,
                       capture_output=True, text=True)
    _one_line_error(r, "pip install 'traindoc[data]'")


def test_github_lines_point_into_csv_and_escape():
    from traindoc.data.render import github
    from traindoc.findings import Finding

    f = Finding("data-nonfinite", "error", "50% NaN\nin `a`", location={"column": "a", "file": "d/x.csv", "file_row": 9})
    assert github([f]) == ("::error file=d/x.csv,line=11,title=traindoc data-nonfinite (TD201)::"
                           "50%25 NaN%0Ain `a`\n")


def test_zero_rows_is_one_line_and_exit_2(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    (tmp_path / "h.csv").write_text("a,label\n")  # header only
    pq.write_table(pa.table({"a": pa.array([], pa.float64()), "label": pa.array([], pa.int64())}),
                   tmp_path / "e.parquet")
    _one_line_error(run_cli("data", "check", tmp_path / "h.csv", "--no-cache"), "h.csv: no rows")
    _one_line_error(run_cli("data", "check", tmp_path / "e.parquet", "--label", "label", "--no-cache"),
                    "e.parquet: no rows")
    # the schema still validates --label
    _one_line_error(run_cli("data", "check", tmp_path / "e.parquet", "--label", "nope", "--no-cache"),
                    "--label nope", "columns are a, label")
    good = write(tmp_path / "t.parquet", clean(200))
    _one_line_error(run_cli("data", "check", good, "--val", tmp_path / "e.parquet", "--no-cache"),
                    "e.parquet: no rows")


def test_corrupt_parquet_error_is_one_printable_line(tmp_path):
    import struct

    path = write(tmp_path / "c.parquet", clean(50))
    with open(path, "rb") as fh:
        b = bytearray(fh.read())
    footer = struct.unpack("<i", b[-8:-4])[0]
    b[len(b) - 8 - footer] = 0x0E  # pyarrow then says "don't know what type: \x0e\n"
    (tmp_path / "c.parquet").write_bytes(bytes(b))
    r = run_cli("data", "check", tmp_path / "c.parquet", "--no-cache")
    _one_line_error(r, "c.parquet: not a readable Parquet file (")
    assert r.stderr.rstrip("\n").isprintable(), repr(r.stderr)


def test_reason_normalises_library_messages():
    from traindoc.data.sources import _reason

    assert _reason(ValueError("bad:\x0e\n  page\theader\r\n")) == "bad: page header"
    assert _reason(ValueError("")) == "ValueError"
    assert len(_reason(ValueError("x" * 1000))) == 300

"""One fixture per check name, end to end through the CLI: the planted problem is found
with its column and rows, nothing else is, and the exit code follows the severity."""

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")
from conftest import run_cli  # noqa: E402
from datafix import clean, findings, load, planted, write  # noqa: E402

NAMES = ["data-nonfinite", "data-outlier", "data-unnormalized", "constant-feature", "class-imbalance",
         "data-duplicates", "label-conflict", "data-leakage"]


@pytest.mark.parametrize("name", NAMES)
def test_check_finds_its_planted_problem(tmp_path, name):
    args, expect = planted(name, tmp_path)
    r = run_cli("data", "check", *args, "--json", "--no-cache")
    assert r.returncode == expect["exit"], r.stderr
    doc = load(r.stdout)
    assert {f["name"] for f in doc["findings"]} == {name}, [f["message"] for f in doc["findings"]]
    got = findings(doc, name)
    for col, rows in expect.get("columns", {}).items():
        f = [f for f in got if f["location"].get("column") == col]
        assert f, (col, [g["location"] for g in got])
        if rows is not None:
            assert f[0]["location"]["rows"] == rows
            assert f[0]["location"]["file"].endswith("train.parquet")
    if "rows" in expect:
        assert sorted(got[0]["location"]["rows"]) == expect["rows"]
    if "pairs" in expect:
        assert got[0]["evidence"][0]["pairs"] == expect["pairs"]
    assert all(f["fix"] and f["confirm"] and f["code"].startswith("TD") for f in got)


def test_clean_data_passes_with_a_summary(tmp_path):
    path = write(tmp_path / "clean.parquet", clean())
    r = run_cli("data", "check", path, "--label", "y", "--no-cache")
    assert r.returncode == 0, r.stderr
    assert "4,000 rows" in r.stdout and "no findings" in r.stdout
    assert "seq lengths" in r.stdout and "P99.9" in r.stdout  # the length distribution is drawn


def test_sequence_cap_fix_names_p999(tmp_path):
    from traindoc.data.engine import check

    d = clean()
    for i in range(3):  # 3 of 4 000 rows: beyond the P99.9, as 37 of 5 M would be
        d["seq"][100 + i] = list(range(2000))
    report = check([write(tmp_path / "t.parquet", d)], cache_dir=False, executor="serial")
    (f,) = [f for f in report.findings if f.location.get("column") == "seq"]
    assert f.severity == "error" and "3 rows longer" in f.message and "max 2 000" in f.message
    assert f.location["rows"] == [100, 101, 102]
    assert "cap `seq` at 14, its P99.9" in f.fix


def test_duplicates_inside_a_conflict_group(tmp_path):
    from traindoc.data.engine import check

    d = clean(500)
    for dst in (100, 200, 300):
        for k in d:
            d[k][dst] = d[k][7]
    d["y"][7], d["y"][100], d["y"][200], d["y"][300] = 0, 0, 1, 1
    ex = check([write(tmp_path / "t.parquet", d)], label="y", cache_dir=False, executor="serial").exact
    assert (ex.duplicate_rows, ex.duplicate_groups) == (2, 2)  # 100 repeats 7, 300 repeats 200
    assert (ex.conflict_rows, ex.conflict_groups) == (4, 1) and ex.conflict_examples == [[7, 100, 200, 300]]


def test_every_check_is_documented_for_explain():
    from traindoc.data.checks import load_all
    from traindoc.data.docs import docs
    from traindoc.taxonomy import TAXONOMY

    d = docs()
    assert set(d) == set(load_all()) == set(NAMES)
    for name, text in d.items():
        assert name in TAXONOMY
        for section in ("What it detects:", "Why it happens:", "How to confirm:", "How to fix:"):
            assert section in text, (name, section)

"""Nulls are NaN once in a tensor: pandas writes float NaN to Parquet as null, a blank
CSV cell reads as null. data-nonfinite reports them (numeric, list, label) unless the
column is configured with ``allow_null``."""

import numpy as np
import pytest

pytest.importorskip("pyarrow")
pd = pytest.importorskip("pandas")
from conftest import run_cli  # noqa: E402
from datafix import findings, load  # noqa: E402

from traindoc.data.config import parse  # noqa: E402
from traindoc.data.engine import check  # noqa: E402


def _frame(n=2000):
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n), "y": rng.integers(0, 2, n).astype(float)})
    df["seq"] = [rng.integers(0, 50, 5).tolist() for _ in range(n)]
    return df


def test_pandas_nan_written_to_parquet_is_reported_with_rows(tmp_path):
    df = _frame()
    df.loc[[5, 77, 1234], "a"] = np.nan  # to_parquet stores these as nulls
    df.loc[9, "y"] = np.nan
    df.at[11, "seq"] = None
    df.at[12, "seq"] = [1, None, 3]
    path = tmp_path / "t.parquet"
    df.to_parquet(path)
    r = run_cli("data", "check", path, "--label", "y", "--json", "--no-cache")
    assert r.returncode == 1, r.stderr
    got = {f["location"]["column"]: f for f in findings(load(r.stdout), "data-nonfinite")}
    assert set(got) == {"a", "y", "seq"}
    assert got["a"]["severity"] == "error" and "3 null/NaN" in got["a"]["message"]
    assert got["a"]["location"]["rows"] == [5, 77, 1234]
    assert got["y"]["message"].startswith("target `y`") and got["y"]["location"]["rows"] == [9]
    assert got["seq"]["location"]["rows"] == [11, 12]
    assert "holds 1 null list, 1 null/NaN element (" in got["seq"]["message"]
    assert "1 null/NaN (" in got["y"]["message"] and "; row 9;" in got["y"]["message"]


def test_blank_csv_cells_are_reported(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("a,b,label\n1.0,2.0,0\n,3.0,1\n2.5,,0\n1.5,4.0,1\n")
    r = run_cli("data", "check", path, "--label", "label", "--no-cache")
    assert r.returncode == 1, r.stdout
    assert "column `a` holds 1 null/NaN" in r.stdout and "column `b` holds 1 null/NaN" in r.stdout


def test_allow_null_per_column_and_globally(tmp_path):
    df = _frame()
    df.loc[[5, 6], "a"] = np.nan
    df.loc[[7], "b"] = np.nan
    path = str(tmp_path / "t.parquet")
    df.to_parquet(path)

    def cols(cfg):
        rep = check([path], label="y", config=cfg, cache_dir=False, executor="serial", exact=False)
        return {f.location["column"] for f in rep.findings if f.name == "data-nonfinite"}

    assert cols(parse({})) == {"a", "b"}
    assert cols(parse({"columns": {"a": {"allow_null": True}}})) == {"b"}
    assert cols(parse({"allow_null": True})) == set()
    df.loc[8, "a"] = np.inf  # allow_null never hides Inf
    df.to_parquet(path)
    assert cols(parse({"allow_null": True})) == {"a"}


def test_null_string_label_is_reported(tmp_path):
    df = _frame(300)
    df["y"] = np.where(df["y"] > 0, "pos", "neg").astype(object)
    df.loc[[40, 41], "y"] = None
    path = str(tmp_path / "t.parquet")
    df.to_parquet(path)
    rep = check([path], label="y", cache_dir=False, executor="serial", exact=False)
    (f,) = [f for f in rep.findings if f.name == "data-nonfinite"]
    assert f.location["rows"] == [40, 41] and f.message.startswith("target `y` holds 2 nulls")
    rep = check([path], label="y", config=parse({"columns": {"y": {"allow_null": True}}}), cache_dir=False,
                executor="serial", exact=False)
    assert not [f for f in rep.findings if f.name == "data-nonfinite"]

"""Every input format reads to the same columns and finds the same NaN/Inf rows; the
parsers are property-tested against NumPy."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")
import pyarrow.parquet as pq  # noqa: E402

from traindoc.data.engine import check  # noqa: E402
from traindoc.data.sources import flatten, read_unit, resolve  # noqa: E402
from traindoc.errors import UserError  # noqa: E402


def _nonfinite(report) -> dict:
    return {f.location["column"]: f.location["rows"] for f in report.findings if f.name == "data-nonfinite"}


def _run(paths, **kw):
    return check([str(p) for p in paths], cache_dir=False, executor="serial", **kw)


def test_csv_jsonl_npy_npz_agree(tmp_path):
    x = np.random.default_rng(0).normal(size=(300, 2))
    x[7, 0], x[9, 1], x[11, 1] = np.nan, np.inf, -np.inf
    (tmp_path / "d.csv").write_text("u,v\n" + "\n".join(f"{float(a)!r},{float(b)!r}" for a, b in x).replace("inf", "Infinity"))
    (tmp_path / "d.jsonl").write_text("\n".join(
        json.dumps({"u": a, "v": b}) for a, b in x))  # Python writes NaN / Infinity tokens
    np.save(tmp_path / "d.npy", x)
    np.savez(tmp_path / "d.npz", u=x[:, 0], v=x[:, 1])
    want = {"u": [7], "v": [9, 11]}
    assert _nonfinite(_run([tmp_path / "d.csv"])) == want
    assert _nonfinite(_run([tmp_path / "d.jsonl"])) == want
    assert _nonfinite(_run([tmp_path / "d.npz"])) == want
    assert _nonfinite(_run([tmp_path / "d.npy"])) == {"d.0": [7], "d.1": [9, 11]}


def test_hive_partitions_globs_nested_structs_and_row_order(tmp_path):
    for day in ("2024-01-01", "2024-01-02"):
        (tmp_path / f"day={day}").mkdir()
        t = pa.table({"user": pa.array([{"age": float(i), "geo": {"lat": 1.0}} for i in range(100)]),
                      "hist": pa.array([[1.0, 2.0]] * 100)})
        pq.write_table(t, tmp_path / f"day={day}" / "part-0.parquet")
    bad = pq.read_table(tmp_path / "day=2024-01-02" / "part-0.parquet").to_pydict()
    bad["user"][5]["age"] = math.nan
    bad["hist"][6] = [1.0, math.inf]
    pq.write_table(pa.table(bad), tmp_path / "day=2024-01-02" / "part-0.parquet")
    r = _run([tmp_path])
    assert set(r.profile.columns) == {"user.age", "user.geo.lat", "hist", "day"}
    assert _nonfinite(r) == {"user.age": [105], "hist": [106]}  # global rows, files in order
    f = [f for f in r.findings if f.location.get("column") == "user.age"][0]
    assert f.location["file"].endswith("day=2024-01-02/part-0.parquet") and f.location["file_row"] == 5
    g = _run([str(tmp_path / "day=*" / "*.parquet")])
    assert _nonfinite(g) == _nonfinite(r)


def test_unknown_type_empty_folder_and_ragged_npz(tmp_path):
    (tmp_path / "x.txt").write_text("hi")
    with pytest.raises(UserError, match="unknown file type"):
        resolve([str(tmp_path / "x.txt")])
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserError, match="holds no"):
        resolve([str(tmp_path / "empty")])
    np.savez(tmp_path / "r.npz", a=np.zeros(3), b=np.zeros(4))
    with pytest.raises(UserError, match="different lengths"):
        _run([tmp_path / "r.npz"])
    np.save(tmp_path / "o.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(UserError):
        _run([tmp_path / "o.npy"])  # never unpickled


floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True, width=64), st.none())


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(floats, floats), min_size=1, max_size=40))
def test_jsonl_and_csv_parse_every_float(tmp_path_factory, rows):
    d = tmp_path_factory.mktemp("p")
    (d / "a.jsonl").write_text("\n".join(json.dumps({"u": a, "v": b}) for a, b in rows) + "\n")
    (d / "a.csv").write_text("u,v\n" + "\n".join(
        ",".join("" if x is None else repr(x).replace("inf", "Infinity") for x in r) for r in rows) + "\n")
    for name in ("a.jsonl", "a.csv"):
        (unit,) = resolve([str(d / name)])
        got = pa.Table.from_batches(list(read_unit(unit))).to_pydict()
        for col, i in (("u", 0), ("v", 1)):
            want = [r[i] for r in rows]
            vals = got.get(col, [None] * len(rows))
            assert len(vals) == len(want)
            for a, b in zip(vals, want):
                if b is None:
                    assert a is None
                elif math.isnan(b):
                    assert a is not None and math.isnan(a)
                else:
                    assert a == b or (a == 0 and b == 0)


def test_flatten_keeps_lists_and_names_struct_fields():
    t = pa.table({"s": pa.array([{"a": 1, "b": {"c": [1, 2]}}])})
    assert flatten(t).schema.names == ["s.a", "s.b.c"]


def test_check_data_takes_a_torch_dataset_and_a_dataframe():
    torch = pytest.importorskip("torch")
    from torch.utils.data import Dataset, TensorDataset

    import traindoc

    x = torch.randn(500, 4)
    x[17, 2] = float("nan")
    y = torch.randint(0, 2, (500,))
    r = traindoc.check_data(TensorDataset(x, y), label="1", executor="serial")
    assert _nonfinite(r) == {"0.2": [17]}
    assert r.exit_code == 1

    class Seqs(Dataset):
        def __len__(self):
            return 3000

        def __getitem__(self, i):
            n = 5000 if i == 1234 else 20 + i % 7
            return {"ids": torch.arange(n), "dense": torch.ones(3) * (i % 5), "y": i % 2}

    r = traindoc.check_data(Seqs(), label="y", executor="serial")
    (f,) = [f for f in r.findings if f.name == "data-outlier"]
    assert f.location["column"] == "ids" and f.location["rows"] == [1234]
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"a": np.r_[np.ones(9), np.inf], "b": np.arange(10.0)})
    assert _nonfinite(traindoc.check_data(df, executor="serial")) == {"a": [9]}


def test_nested_lists_map_elements_to_their_rows(tmp_path):
    t = pa.table({"n": pa.array([[[1.0, 2.0]], [[3.0], [math.nan]], [], [[4.0, math.inf]]]), "x": [1.0, 2.0, 3.0, 4.0]})
    pq.write_table(t, tmp_path / "a.parquet")
    assert _nonfinite(_run([tmp_path / "a.parquet"])) == {"n": [1, 3]}

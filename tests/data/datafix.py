"""Small datasets with one planted problem each: the fixtures of the data checks."""

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

N = 4000


def clean(n: int = N, seed: int = 0) -> dict:
    """Normalised features, a sequence column and a balanced label: no finding."""
    rng = np.random.default_rng(seed)
    return {
        "a": rng.normal(size=n), "b": rng.normal(size=n).astype(np.float32), "c": rng.normal(size=n),
        "seq": [rng.integers(0, 100, int(k)).tolist() for k in rng.integers(5, 15, n)],
        "y": rng.integers(0, 2, n),
    }


def copy_row(cols: dict, src: int, dst: int, skip=()) -> None:
    for k, v in cols.items():
        if k not in skip:
            v[dst] = v[src]


def write(path, cols: dict, row_group_size=None) -> str:
    t = pa.table({k: pa.array(v) for k, v in cols.items()})
    pq.write_table(t, str(path), row_group_size=row_group_size)
    return str(path)


def planted(name: str, tmp) -> tuple[list[str], dict]:
    """(CLI arguments, expectations) for the fixture of check ``name``."""
    d = clean()
    args, expect = [], {}
    if name == "data-nonfinite":
        d["a"][10], d["a"][11], d["b"][20] = np.nan, -np.inf, np.inf
        expect = {"exit": 1, "columns": {"a": [10, 11], "b": [20]}}
    elif name == "data-outlier":
        d["c"][123] = 1e6
        d["seq"][7] = list(range(500))
        expect = {"exit": 1, "columns": {"c": [123], "seq": [7]}}
    elif name == "data-unnormalized":
        d["c"] = d["c"] * 1e5 + 1e6
        expect = {"exit": 0, "columns": {"c": None}}
    elif name == "constant-feature":
        d["k"] = np.full(N, 3.0)
        expect = {"exit": 0, "columns": {"k": None}}
    elif name == "class-imbalance":
        d["y"] = np.zeros(N, np.int64)
        d["y"][:10] = 1
        expect = {"exit": 0, "columns": {"y": None}}
    elif name == "data-duplicates":
        copy_row(d, 5, 900)
        copy_row(d, 5, 3000)
        expect = {"exit": 0, "rows": [5, 900, 3000]}
    elif name == "label-conflict":
        copy_row(d, 5, 900, skip=("y",))
        d["y"][900] = 1 - d["y"][5]
        expect = {"exit": 0, "rows": [5, 900], "columns": {"y": None}}
    elif name == "data-leakage":
        v = clean(200, seed=1)
        for k in v:
            v[k][3] = d[k][42]
        v["y"][3] = 1 - d["y"][42]  # leakage compares features only
        args = ["--val", write(tmp / "val.parquet", v)]
        expect = {"exit": 1, "rows": [3], "pairs": [{"val": 3, "train": 42}]}
    else:
        raise KeyError(name)
    return [write(tmp / "train.parquet", d, row_group_size=1000), "--label", "y", *args], expect


def findings(doc: dict, name: str) -> list[dict]:
    return [f for f in doc["findings"] if f["name"] == name]


def load(stdout: str) -> dict:
    return json.loads(stdout)

"""class-imbalance: where a skewed label becomes info and a warning, binary and
multi-class, and what is not a label of classes (regression targets, ids, counts)."""

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.csv as pcsv  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
from conftest import run_cli  # noqa: E402
from datafix import findings, load  # noqa: E402

from traindoc.data.config import parse  # noqa: E402
from traindoc.data.engine import check  # noqa: E402

N = 20_000


def _fraud(p: float, n: int = N, seed: int = 0) -> pa.Table:
    """A fraud-style table: an id, an amount, an hour, a score and ``is_fraud`` at rate p."""
    rng = np.random.default_rng(seed)
    y = np.zeros(n, np.int64)
    y[rng.choice(n, int(round(p * n)), replace=False)] = 1
    return pa.table({"transaction_id": np.arange(n), "amount": np.round(rng.lognormal(3, 1, n), 2),
                     "hour": rng.integers(0, 24, n), "score": rng.random(n), "is_fraud": y})


def _imbalance(tmp_path, label, config=None, name="t.parquet", **cols):
    n = len(next(iter(cols.values())))
    rng = np.random.default_rng(1)
    t = pa.table({"x": rng.normal(size=n), **{k: pa.array(v) for k, v in cols.items()}})
    path = tmp_path / name
    pq.write_table(t, path)
    rep = check([str(path)], label=label, config=config, cache_dir=False, executor="serial", exact=False)
    return [f for f in rep.findings if f.name == "class-imbalance"]


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_fraud_table_with_2_percent_positives_is_a_warning_with_pos_weight(tmp_path, fmt):
    path = tmp_path / f"fraud.{fmt}"
    t = _fraud(0.02)
    pq.write_table(t, path) if fmt == "parquet" else pcsv.write_csv(t, path)
    r = run_cli("data", "check", path, "--label", "is_fraud", "--json", "--no-cache")
    assert r.returncode == 0, r.stderr  # a warning does not fail the check
    (f,) = findings(load(r.stdout), "class-imbalance")
    assert f["severity"] == "warning" and f["location"]["column"] == "is_fraud"
    ev = f["evidence"][0]
    assert ev["rarest"] == {"class": "1", "rows": 400, "share": 0.02} and ev["largest"]["rows"] == 19_600
    assert ev["pos_weight"] == 49.0 and ev["constant_accuracy"] == 0.98
    assert "1:49 against class 0" in f["message"] and "98.00% accurate" in f["message"]
    assert "pos_weight=torch.tensor(49)" in f["fix"] and "PR-AUC" in f["fix"]


def test_balanced_fraud_table_passes(tmp_path):
    path = tmp_path / "balanced.parquet"
    pq.write_table(_fraud(0.5), path)
    r = run_cli("data", "check", path, "--label", "is_fraud", "--json", "--no-cache")
    assert r.returncode == 0 and not findings(load(r.stdout), "class-imbalance")


@pytest.mark.parametrize("minority,severity", [(5000, None), (4001, None), (3000, "info"), (2001, "info"),
                                               (1999, "warning"), (10, "warning")])
def test_thresholds_1_to_5_info_1_to_10_warning(tmp_path, minority, severity):
    y = np.zeros(20_000 + minority, np.int64)
    y[:minority] = 1
    got = _imbalance(tmp_path, "y", y=y)
    assert [f.severity for f in got] == ([severity] if severity else [])


def test_thresholds_are_configurable(tmp_path):
    y = np.zeros(10_000, np.int64)
    y[:300] = 1  # 1:32
    cfg = parse({"min_class_ratio": 0.01, "info_class_ratio": 0.05})
    assert [f.severity for f in _imbalance(tmp_path, "y", config=cfg, y=y)] == ["info"]
    cfg = parse({"columns": {"y": {"min_class_ratio": 0.5}}})  # above the info ratio: still a warning
    y[:3000] = 1  # 3:7
    assert [f.severity for f in _imbalance(tmp_path, "y", config=cfg, y=y)] == ["warning"]


def test_minority_class_zero_names_the_positive_class(tmp_path):
    y = np.ones(5000, np.int64)
    y[:50] = 0
    (f,) = _imbalance(tmp_path, "y", y=y)
    assert "class 0 is 1.00%" in f.message and "with 0 as the positive class" in f.fix


def test_string_and_boolean_labels(tmp_path):
    y = np.array(["legit"] * 4900 + ["fraud"] * 100)
    (f,) = _imbalance(tmp_path, "y", y=y)
    assert "class 'fraud' is 2.00%" in f.message and f.evidence[0]["pos_weight"] == 49.0
    (f,) = _imbalance(tmp_path, "y", y=y == "fraud")
    assert f.evidence[0]["rarest"]["class"] == "True"


def test_single_class_is_a_warning(tmp_path):
    (f,) = _imbalance(tmp_path, "y", y=np.zeros(1000, np.int64))
    assert f.severity == "warning" and "single class" in f.message


def test_nan_labels_are_not_a_class(tmp_path):
    y = np.tile([0.0, 1.0], 2000)
    y[:3] = np.nan  # data-nonfinite reports these; not a rare class "nan"
    assert _imbalance(tmp_path, "y", y=y) == []
    z = np.tile(np.arange(4.0), 1000)  # multi-class indices made float by a NaN
    z[:2] = np.nan
    z[np.flatnonzero(z == 3.0)[20:]] = 0.0
    (f,) = _imbalance(tmp_path, "y", y=z)
    assert f.evidence[0]["rarest"] == {"class": "3.0", "rows": 20, "share": round(20 / 3998, 6)}


@pytest.mark.parametrize("kind", ["normal", "rounded-float", "soft", "age", "count", "rating", "price-cents",
                                  "unique-id", "big-id", "repeated-id"])
def test_regression_targets_and_ids_are_not_imbalanced(tmp_path, kind):
    rng = np.random.default_rng(7)
    n = 20_000
    y = {
        "normal": rng.normal(50, 10, n),                                      # continuous
        "rounded-float": np.round(rng.gamma(2.0, 2.0, n)).clip(1, None),     # rooms 1..20 as float
        "soft": rng.choice([0.0, 0.1, 0.9, 1.0], n, p=[0.6, 0.05, 0.05, 0.3]),  # smoothed labels
        "age": np.round(rng.normal(40, 12, n)).clip(18, 95).astype(np.int64),
        "count": rng.poisson(5, n),                                           # clicks per session
        "rating": rng.choice(np.arange(1, 11), n, p=[.01, .01, .03, .08, .17, .25, .22, .14, .06, .03]),
        "price-cents": (rng.lognormal(7, 1, n)).astype(np.int64),
        "unique-id": rng.permutation(5000),                                  # fewer than 10 000 values
        "big-id": np.arange(n),                                               # more than 10 000 values
        "repeated-id": np.repeat(rng.permutation(100_000)[:4000] * 7, 5),     # 5 events per user
    }[kind]
    assert _imbalance(tmp_path, "y", y=y) == [], kind


def test_many_classes_long_tail_is_found(tmp_path):
    rng = np.random.default_rng(3)
    counts = np.round(1000 * 0.93 ** np.arange(60)).astype(int)  # 1000 down to 14: 1:71
    ids = rng.permutation(60)  # class ids not ordered by frequency
    y = np.repeat(ids, counts)
    (f,) = _imbalance(tmp_path, "y", y=y)
    assert f.severity == "warning" and "60 classes" in f.message
    assert f.evidence[0]["rarest"]["rows"] == counts[-1] and len(f.evidence[0]["weights"]) == 5
    assert "CrossEntropyLoss(weight=" in f.fix


def test_multiclass_with_one_dominant_class(tmp_path):
    # intents: "other" (class 5) is 94 %, five rare intents: one dominant class is no quantity
    y = np.repeat(np.arange(6), [300, 250, 200, 200, 250, 18_800])
    (f,) = _imbalance(tmp_path, "y", y=y)
    assert f.severity == "warning" and f.evidence[0]["largest"] == {"class": "5", "rows": 18_800}


def test_not_classes_reasons():
    from traindoc.data.checks.class_imbalance import not_classes

    assert not_classes({0: 98, 1: 2}, False) is None
    assert not_classes({0.0: 98, 1.0: 2}, True) is None
    assert "non-integer" in not_classes({0.5: 1, 1.0: 2}, True)
    assert "sparse" in not_classes({i * 100: 5 for i in range(30)}, False)
    assert "tails" in not_classes({i: c for i, c in enumerate([1, 5, 50, 90, 100, 80, 40, 3])}, False)
    assert not_classes({i: c for i, c in enumerate([50, 1, 90, 100, 2, 80, 40, 3])}, False) is None
    assert not_classes({"a": 1, "b": 100}, False) is None

"""data-outlier severity: heavy-tailed values warn (they are often legitimate), sequence
lengths block, and ``outlier_error_k`` opts values into errors. Integer columns get
integer quantiles in messages and fix code."""

import numpy as np
import pytest

pytest.importorskip("pyarrow")
from conftest import run_cli  # noqa: E402
from datafix import clean, write  # noqa: E402

from traindoc.data.config import parse  # noqa: E402
from traindoc.data.engine import check  # noqa: E402


def _pareto(tmp_path, n=100_000):
    rng = np.random.default_rng(4)  # max 142 556, P99.9 523: ~270 spreads past the fence
    pop = np.floor(rng.pareto(1.1, n) + 1).astype(np.int64)  # a popularity count
    return write(tmp_path / "tab.parquet", {"item_pop": pop, "x": rng.normal(size=n)})


def test_heavy_tailed_values_warn_and_do_not_block(tmp_path):
    path = _pareto(tmp_path)
    r = run_cli("data", "check", path, "--no-cache")
    assert r.returncode == 0, r.stdout
    assert "warning data-outlier" in r.stdout and "`item_pop`" in r.stdout
    (f,) = [f for f in check([path], cache_dir=False, executor="serial", exact=False).findings
            if f.name == "data-outlier"]
    lo, hi = f.evidence[0]["p_low"], f.evidence[0]["p_high"]
    assert float(lo).is_integer() and float(hi).is_integer()  # integer column: no clip(1.00391, ...)
    assert f"clip({int(lo)}, {int(hi)})" in f.fix


def test_outlier_error_k_makes_far_values_errors(tmp_path):
    d = clean()
    d["c"][123] = 1e30  # a sentinel
    path = write(tmp_path / "t.parquet", {k: d[k] for k in ("a", "c")})
    (f,) = check([path], cache_dir=False, executor="serial", exact=False).findings
    assert f.severity == "warning"
    rep = check([path], config=parse({"columns": {"c": {"outlier_error_k": 100}}}), cache_dir=False,
                executor="serial", exact=False)
    assert [f.severity for f in rep.findings] == ["error"] and rep.exit_code == 1


def test_a_5000_long_sequence_still_blocks(tmp_path):
    d = clean()
    d["seq"][3210] = list(range(5000))
    r = run_cli("data", "check", write(tmp_path / "s.parquet", d), "--label", "y", "--no-cache")
    assert r.returncode == 1 and "error data-outlier" in r.stdout and "max 5 000" in r.stdout and "1 row longer" in r.stdout

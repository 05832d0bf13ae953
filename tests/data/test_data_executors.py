"""Every executor (process pool, Dask, Ray, partial results merged by hand as a Spark job
would) gives the same findings as one serial pass."""

import pytest

pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")
from datafix import clean, planted, write  # noqa: E402

from traindoc.data.engine import VAL_BASE, check, check_partials  # noqa: E402
from traindoc.data.scan import ScanOptions, scan_unit  # noqa: E402
from traindoc.data.sources import resolve  # noqa: E402


def _dataset(tmp_path):
    """Four files, a unit per 1 000 rows: problems straddle unit boundaries."""
    paths = []
    for i in range(4):
        args, _ = planted(["data-nonfinite", "data-outlier", "data-duplicates", "label-conflict"][i], tmp_path)
        paths.append(str(tmp_path / f"p{i}.parquet"))
        (tmp_path / "train.parquet").rename(paths[-1])
    val = write(tmp_path / "val.parquet", clean(100, seed=1))
    return paths, [val]


def _key(report):
    return sorted((f.name, f.severity, f.message, str(f.location)) for f in report.findings)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ex")
    paths, val = _dataset(tmp)
    base = check(paths, val, label="y", executor="serial", cache_dir=False)
    assert {f.name for f in base.findings} >= {"data-nonfinite", "data-outlier", "data-duplicates", "label-conflict"}
    return paths, val, _key(base)


def test_process_pool_and_small_units_match_serial(data, monkeypatch):
    paths, val, want = data
    import traindoc.data.sources as sources

    monkeypatch.setattr(sources, "UNIT_ROWS", 1000)
    assert len(resolve(paths)) == 16
    assert _key(check(paths, val, label="y", executor="process", workers=2, cache_dir=False)) == want


def test_partials_merged_by_hand_match(data):
    paths, val, want = data
    opts = ScanOptions(label="y")
    train = [(i, *scan_unit(i, u, opts, None)) for i, u in enumerate(resolve(paths))]
    vparts = [(VAL_BASE + i, *scan_unit(VAL_BASE + i, u, opts, None)) for i, u in enumerate(resolve(val))]
    assert _key(check_partials(train, vparts)) == want


def test_dask_local_cluster_matches(data):
    distributed = pytest.importorskip("distributed")
    paths, val, want = data
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        assert _key(check(paths, val, label="y", executor="dask", cache_dir=False)) == want


@pytest.mark.slow
def test_ray_local_matches(data):
    ray = pytest.importorskip("ray")
    paths, val, want = data
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert _key(check(paths, val, label="y", executor="ray", cache_dir=False)) == want
    finally:
        ray.shutdown()

"""``traindoc data check`` against a plain pandas implementation of the same checks (and
Deepchecks' data-integrity suite and whylogs, where they are installed), on generated
Parquet shards with planted problems.

The data: N rows x 20 numeric columns (10 float64, 8 float32, 2 int64), a list column
``seq`` (item ids, lengths ~ Poisson(20)) and a binary label ``clicked``, in shards of
625 000 rows, plus a validation split. Planted (their rows are in ``truth.json``): NaN and
Inf in ``f3``; 12 values of 1e9 in ``f7``; 37 sequences 500 to 5 000 long; a constant
``f19``; ``f10`` on a 1e5 scale; 0.5 % positives; 1 000 duplicated rows, 200 of them
with the label flipped (conflicts); 500 validation rows copied from training.

    OMP_WAIT_POLICY=PASSIVE python bench/data_check.py [--rows 5000000] [--big]
        [--skip-pandas] [--others PYTHON] [--dir DIR]
    python bench/data_check.py --sketches     # the quantile sketch against datasketches
    python bench/data_check.py --vs-read [--rounds 3] [--baseline DIR]   # against pyarrow's read alone

Each tool runs in its own subprocess: wall time, CPU time of the process tree (user +
sys, from ``getrusage``; on a shared machine CPU / cores is the wall time it would take
idle) and peak memory (the tree's summed PSS, sampled every 0.1 s);
traindoc runs with its cache off, then once more with it on to time the CI re-check.
``--big`` also checks a dataset four times as large (peak RSS only).

``--vs-read`` measures the check against its physical limit: the time pyarrow takes only
to read and decode the same Parquet columns (``pyarrow.parquet.read_table`` of every
training shard and the validation file, all columns, its own thread pool on all cores),
against ``traindoc data check`` of the same files (``--no-cache``, all cores), each in its
own process, interleaved A B A B, with the files evicted from the OS page cache before
every run (``posix_fadvise(DONTNEED)``: uncached, as the first check in CI is); prints
each run and the median ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

SHARD = 625_000
NUM = [f"f{i}" for i in range(20)]
SEED = 20261201


def _shard_table(s: int, rows: int, start: int, truth: dict):
    import pyarrow as pa

    rng = np.random.default_rng(SEED + s)
    cols = {}
    for i, name in enumerate(NUM):
        if i < 10:
            cols[name] = rng.normal(0.0, 1.0, rows)
        elif i < 18:
            cols[name] = rng.normal(0.0, 1.0, rows).astype(np.float32)
        else:
            cols[name] = rng.integers(0, 100, rows)
    cols["f10"] = (cols["f10"] * 1e5 + 3e5).astype(np.float32)
    cols["f19"] = np.full(rows, 7, np.int64)
    lens = np.minimum(rng.poisson(20, rows), 200)
    label = (rng.random(rows) < 0.005).astype(np.int64)
    # Planted problems, a few per shard at random rows (all recorded as global rows).
    bad = rng.choice(rows, 64 + 2400, replace=False)
    nan_rows, inf_rows, out_rows = bad[:5], bad[5:6], bad[6:8]
    long_rows = bad[8:13] if s < 7 else bad[8:10]  # 5 x 7 + 2 = 37 in the 5 M set
    cols["f3"][nan_rows] = np.nan
    cols["f3"][inf_rows] = np.inf
    cols["f7"][out_rows] = 1e9
    lens[long_rows] = rng.integers(500, 5001, len(long_rows))
    offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    items = rng.integers(0, 1_000_000, int(offsets[-1]))
    # 125 duplicates per shard (1 000 in 5 M), the first 25 with the label flipped.
    src, dst = bad[64:64 + 125], bad[64 + 125:64 + 250]
    for name in NUM:
        cols[name][dst] = cols[name][src]
    seq_lists = np.split(items, offsets[1:-1])
    for a, b in zip(src, dst):
        seq_lists[b] = seq_lists[a]
    label[dst] = label[src]
    label[dst[:25]] = 1 - label[src[:25]]
    lens = np.array([len(x) for x in seq_lists]) if len(dst) else lens
    offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    seq = pa.ListArray.from_arrays(pa.array(offsets), pa.array(np.concatenate(seq_lists)))
    g = lambda r: sorted(int(start + x) for x in r)  # noqa: E731
    truth["nonfinite"]["f3"] += g(np.concatenate([nan_rows, inf_rows]))
    truth["outlier"]["f7"] += g(out_rows)
    truth["long"] += g(long_rows)
    truth["dup_pairs"] += [[int(start + a), int(start + b)] for a, b in zip(src[25:], dst[25:])]
    truth["conflict_pairs"] += [[int(start + a), int(start + b)] for a, b in zip(src[:25], dst[:25])]
    table = pa.table({**{k: pa.array(v) for k, v in cols.items()}, "seq": seq, "clicked": label})
    return table


def generate(folder: str, rows: int) -> dict:
    """Write the shards and the validation split once; returns the truth (planted rows)."""
    import pyarrow.parquet as pq

    done = os.path.join(folder, "truth.json")
    if os.path.exists(done):
        with open(done) as fh:
            return json.load(fh)
    os.makedirs(os.path.join(folder, "train"), exist_ok=True)
    truth: dict = {"rows": rows, "nonfinite": {"f3": []}, "outlier": {"f7": []}, "long": [],
                   "dup_pairs": [], "conflict_pairs": [], "leaked_val_rows": []}
    start, s = 0, 0
    first = None
    while start < rows:
        n = min(SHARD, rows - start)
        t = _shard_table(s, n, start, truth)
        if first is None:
            first = t.slice(0, 100_000)
        pq.write_table(t, os.path.join(folder, "train", f"part-{s:05d}.parquet"), row_group_size=131_072)
        start, s = start + n, s + 1
    # Validation: fresh rows with 500 training rows copied in (features and label).
    v = _shard_table(10_000, 100_000, 0, {"nonfinite": {"f3": []}, "outlier": {"f7": []}, "long": [],
                                           "dup_pairs": [], "conflict_pairs": []})
    rng = np.random.default_rng(SEED - 1)
    tr_rows = rng.choice(first.num_rows, 500, replace=False)
    va_rows = rng.choice(v.num_rows, 500, replace=False)
    import pyarrow as pa

    mask = np.zeros(v.num_rows, bool)
    mask[va_rows] = True
    pieces = []
    take_from = dict(zip(va_rows.tolist(), tr_rows.tolist()))
    for name in v.schema.names:
        col = v.column(name).to_pylist()
        src = first.column(name).to_pylist()
        for a, b in take_from.items():
            col[a] = src[b]
        pieces.append(pa.array(col, type=v.schema.field(name).type))
    v = pa.table(pieces, names=v.schema.names)
    pq.write_table(v, os.path.join(folder, "val.parquet"), row_group_size=131_072)
    truth["leaked_val_rows"] = sorted(int(x) for x in va_rows)
    with open(done, "w") as fh:
        json.dump(truth, fh)
    return truth


# -- the pandas baseline: the same checks, written the way a pandas user would ----------
def pandas_checks(folder: str) -> dict:
    import glob

    import pandas as pd

    files = sorted(glob.glob(os.path.join(folder, "train", "*.parquet")))
    df = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    val = pd.read_parquet(os.path.join(folder, "val.parquet"))
    out: dict = {"nonfinite": {}, "outlier": {}}
    for c in NUM:
        bad = ~np.isfinite(df[c].to_numpy(dtype=float))
        if bad.any():
            out["nonfinite"][c] = np.flatnonzero(bad).tolist()
        x = df[c].replace([np.inf, -np.inf], np.nan)
        lo, p50, hi = x.quantile([0.001, 0.5, 0.999])
        fence_hi, fence_lo = hi + 3 * (hi - p50), lo - 3 * (p50 - lo)
        rows = np.flatnonzero(((x > fence_hi) & (hi > p50)) | ((x < fence_lo) & (p50 > lo))).tolist()
        if rows:
            out["outlier"][c] = rows
    lens = df["seq"].map(len)
    p50, hi = lens.quantile(0.5, interpolation="lower"), lens.quantile(0.999, interpolation="lower")
    out["long"] = np.flatnonzero(lens > hi + 3 * (hi - p50)).tolist()
    q = df[NUM].quantile([0.25, 0.5, 0.75])
    scale = (q.loc[0.75] - q.loc[0.25]) / 1.349
    scale = scale[scale > 0]
    out["unnormalized"] = sorted(scale.index[(scale > 100) | (q.loc[0.5, scale.index].abs() > 10 * scale)])
    out["constant"] = [c for c in NUM if df[c].nunique(dropna=False) == 1]
    counts = df["clicked"].value_counts()
    out["imbalance"] = float(counts.min() / counts.max())
    # exact duplicates / conflicts / leakage: lists are not hashable, so as bytes
    df["seq"] = df["seq"].map(lambda a: a.tobytes())
    val["seq"] = val["seq"].map(lambda a: a.tobytes())
    feats = NUM + ["seq"]
    dup = df.duplicated(keep="first")
    out["duplicates"] = int(dup.sum())
    n_labels = df.groupby(feats, dropna=False)["clicked"].transform("nunique")
    out["conflict_rows"] = int((n_labels > 1).sum())
    leaked = val.reset_index().merge(df[feats].drop_duplicates(), on=feats, how="inner")["index"]
    out["leaked"] = sorted(leaked.tolist())
    return out


def verify_pandas(res: dict, truth: dict) -> list[str]:
    ok = []
    ok += ["nonfinite"] if res["nonfinite"].get("f3") == sorted(truth["nonfinite"]["f3"]) else []
    ok += ["outlier"] if set(res["outlier"].get("f7", [])) == set(truth["outlier"]["f7"]) else []
    ok += ["long"] if res["long"] == sorted(truth["long"]) else []
    ok += ["unnormalized"] if res["unnormalized"] == ["f10"] else []
    ok += ["constant"] if res["constant"] == ["f19"] else []
    ok += ["imbalance"] if res["imbalance"] < 0.01 else []
    ok += ["duplicates"] if res["duplicates"] == len(truth["dup_pairs"]) else []
    ok += ["conflicts"] if res["conflict_rows"] == 2 * len(truth["conflict_pairs"]) else []
    ok += ["leakage"] if res["leaked"] == truth["leaked_val_rows"] else []
    return ok


def verify_traindoc(doc: dict, truth: dict) -> list[str]:
    """Each planted problem: the finding, its count and its rows (the listed ones)."""
    by = {}
    for f in doc["findings"]:
        by.setdefault((f["name"], f["location"].get("column")), f)
    ok = []
    f = by.get(("data-nonfinite", "f3"))
    t = sorted(truth["nonfinite"]["f3"])
    if f and f["location"]["rows"] == t[:20] and f["evidence"][0]["nan"] + f["evidence"][0]["posinf"] == len(t):
        ok.append("nonfinite")
    f = by.get(("data-outlier", "f7"))
    t = set(truth["outlier"]["f7"])  # rows: the 20 most extreme (all of them when fewer)
    if f and set(f["location"]["rows"]) <= t and len(f["location"]["rows"]) == min(20, len(t)) \
            and f["evidence"][0]["count"] == len(t):
        ok.append("outlier")
    f = by.get(("data-outlier", "seq"))
    if f and f["evidence"][0]["rows_beyond"] == len(truth["long"]) and set(f["location"]["rows"]) <= set(truth["long"]):
        ok.append("long")
    f = by.get(("data-unnormalized", "f10"))
    ok += ["unnormalized"] if f and "f10" in f["location"]["columns"] else []
    ok += ["constant"] if ("constant-feature", "f19") in by else []
    ok += ["imbalance"] if ("class-imbalance", "clicked") in by else []
    pairs = {tuple(sorted(p)) for p in truth["dup_pairs"]}
    f = by.get(("data-duplicates", None))
    if f and f["evidence"][0]["duplicate_rows"] == len(pairs) and all(tuple(g) in pairs for g in f["evidence"][0]["examples"]):
        ok.append("duplicates")
    cp = {tuple(sorted(p)) for p in truth["conflict_pairs"]}
    f = by.get(("label-conflict", "clicked"))
    if f and f["evidence"][0]["groups"] == len(cp) and all(tuple(g) in cp for g in f["evidence"][0]["examples"]):
        ok.append("conflicts")
    f = by.get(("data-leakage", None))
    leaked = set(truth["leaked_val_rows"])
    if f and f["evidence"][0]["leaked_rows"] == len(leaked) and all(p["val"] in leaked for p in f["evidence"][0]["pairs"]):
        ok.append("leakage")
    return ok


# -- Deepchecks and whylogs (another virtualenv: their pins clash with numpy 2) ----------
def others(folder: str, tool: str, rows: int) -> dict:
    import glob

    import pandas as pd

    files = sorted(glob.glob(os.path.join(folder, "train", "*.parquet")))
    df = pd.concat([pd.read_parquet(f, columns=NUM + ["clicked"]) for f in files], ignore_index=True)
    note = ""
    if rows < len(df):
        df, note = df.sample(rows, random_state=0), f"subsample {rows:,} of {len(df):,} rows, no list column"
    else:
        note = "no list column (unsupported)"
    if tool == "deepchecks":
        from deepchecks.tabular import Dataset
        from deepchecks.tabular.suites import data_integrity

        res = data_integrity().run(Dataset(df, label="clicked", cat_features=[]))
        failed = sorted({r.get_header() for r in res.get_not_passed_checks()})
        return {"note": note, "flagged": failed}
    import whylogs as why

    prof = why.log(df).view().to_pandas()
    return {"note": note + f"; a profile of {len(prof)} columns, no checks or rows", "flagged": []}


def _child(argv: list[str]) -> None:
    tool, folder = argv[0], argv[1]
    t = time.perf_counter()
    if tool == "pandas":
        res = pandas_checks(folder)
    else:
        res = others(folder, tool, int(argv[2]))
    res["seconds"] = time.perf_counter() - t
    print("RESULT " + json.dumps(res))


def _measure(cmd: list[str], env=None, timeout=1800) -> tuple[float, float, str, int]:
    """(wall s, peak memory of the process tree in MB (sum of PSS), stdout, exit code)."""
    import resource

    import psutil

    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    proc, peak = psutil.Process(p.pid), 0
    import threading

    out: dict = {}
    th = threading.Thread(target=lambda: out.update(zip(("o", "e"), p.communicate(timeout=timeout))))
    th.start()
    while th.is_alive():
        try:
            tree = [proc, *proc.children(recursive=True)]
            # PSS, not RSS: forked workers share the parent's pages (torch, Arrow), which
            # a sum of RSS would count once per process
            peak = max(peak, sum(q.memory_full_info().pss for q in tree if q.is_running()))
        except psutil.Error:
            pass
        th.join(0.1)
    if p.returncode not in (0, 1):
        sys.stderr.write(out.get("e", "")[-3000:])
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)  # the tree's CPU: reaped workers included
    _measure.cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return wall, peak / 2**20, out.get("o", ""), p.returncode


def sketches(n: int = 1_000_000, rounds: int = 5) -> None:
    """Update cost and far-tail accuracy of the quantile sketch against datasketches' REQ,
    t-digest and KLL (if installed), on normal, log-normal and Cauchy data; the median of
    ``rounds`` interleaved timings."""
    import statistics

    from traindoc.data.sketch import LogSketch

    makers = {"traindoc log-linear": (LogSketch, lambda s, q: s.quantile(q))}
    try:
        import datasketches as ds

        makers["datasketches REQ k=12 (hra)"] = (lambda: ds.req_floats_sketch(12, True), lambda s, q: s.get_quantile(q))
        makers["datasketches t-digest k=200"] = (lambda: ds.tdigest_double(200), lambda s, q: s.get_quantile(q))
        makers["datasketches KLL k=200"] = (lambda: ds.kll_doubles_sketch(200), lambda s, q: s.get_quantile(q))
    except ImportError:
        print("(datasketches not installed: pip install datasketches to compare)")
    rng = np.random.default_rng(0)
    data = {"normal": rng.normal(size=n), "lognormal": rng.lognormal(0, 2, n), "cauchy": rng.standard_cauchy(n)}
    times: dict = {k: [] for k in makers}
    errs: dict = {(k, q): 0.0 for k in makers for q in (0.001, 0.999)}
    tail: dict = {(k, q): 0.0 for k in makers for q in (0.001, 0.999)}
    for _ in range(rounds):
        for name, (make, _q) in makers.items():
            s = make()
            t = time.perf_counter()
            s.update(data["normal"])
            times[name].append(time.perf_counter() - t)
    for name, (make, get) in makers.items():
        for x in data.values():
            s = make()
            s.update(x)
            xs = np.sort(x)
            for q in (0.001, 0.999):
                want, got = np.quantile(x, q, method="lower"), get(s, q)
                errs[name, q] = max(errs[name, q], abs(got - want) / abs(want))
                # the tail's mass beyond the estimate against the true 0.1 %
                beyond = (len(xs) - np.searchsorted(xs, got, "right")) / len(xs) if q > 0.5 else \
                    np.searchsorted(xs, got, "left") / len(xs)
                tail[name, q] = max(tail[name, q], abs(beyond - 0.001) / 0.001)
    print("worst over normal, log-normal and Cauchy data: the relative error of the value, and of the")
    print("tail's mass beyond it (against the true 0.1 %)")
    print(f"{'sketch':30s} {'update s / 1M':>14s} {'P0.1 value':>11s} {'P0.1 mass':>10s} {'P99.9 value':>12s} {'P99.9 mass':>11s}")
    for n in makers:
        print(f"{n:30s} {statistics.median(times[n]):14.4f} {errs[n, 0.001]:11.2%} {tail[n, 0.001]:10.1%} "
              f"{errs[n, 0.999]:12.2%} {tail[n, 0.999]:11.1%}")


_READ = """
import sys, time
import pyarrow.parquet as pq
t = time.perf_counter()
rows = sum(pq.read_table(f).num_rows for f in sys.argv[1:])
print(rows, time.perf_counter() - t)
"""


def evict(paths: list[str]) -> None:
    """Drop the files' pages from the OS page cache (no root needed for clean pages)."""
    for f in paths:
        fd = os.open(f, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def vs_read(folder: str, rounds: int, baseline: str | None = None) -> None:
    """The check against pyarrow's read and decode of the same files: A B A B, uncached.
    ``baseline``: a folder holding another version of the ``traindoc`` package (``git
    archive REV traindoc | tar -x -C DIR``), checked in the same rounds as a third run."""
    import glob
    import resource
    import statistics

    files = sorted(glob.glob(os.path.join(folder, "train", "*.parquet"))) + [os.path.join(folder, "val.parquet")]
    env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE")
    runs = {
        "pyarrow read_table (read + decode)": [sys.executable, "-c", _READ, *files],
        "traindoc data check": [sys.executable, "-m", "traindoc", "data", "check", os.path.join(folder, "train"),
                                "--val", files[-1], "--label", "clicked", "--json", "--no-cache"],
    }
    envs = {k: env for k in runs}
    if baseline:
        name = f"traindoc data check ({os.path.basename(os.path.abspath(baseline))})"
        runs[name] = runs["traindoc data check"]
        envs[name] = dict(env, PYTHONPATH=os.path.abspath(baseline))
    here = dict(env, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    envs["traindoc data check"] = here
    times: dict = {k: [] for k in runs}
    cpu: dict = {k: [] for k in runs}
    outputs: dict = {}
    ratios = []
    print(f"{len(files)} files, {sum(os.path.getsize(f) for f in files) / 2**20:,.0f} MB; cpus {os.cpu_count()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    for r in range(rounds):
        for name, cmd in runs.items():
            evict(files)
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            # cwd: the data folder, so that PYTHONPATH (not this checkout) picks the package
            p = subprocess.run(cmd, env=envs[name], capture_output=True, text=True, cwd=folder)
            wall = time.perf_counter() - t
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            if p.returncode not in (0, 1):
                sys.exit(f"{name} failed: {p.stderr[-2000:]}")
            if name != "pyarrow read_table (read + decode)":
                outputs[name] = json.loads(p.stdout)["findings"]
            times[name].append(wall)
            cpu[name].append((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime))
            print(f"  round {r + 1}: {name}: {wall:.2f} s wall, {cpu[name][-1]:.2f} s CPU "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)
        a, b = (times[k][-1] for k in list(runs)[:2])
        ratios.append(b / a)
    print(f"\n{'':36s} {'median wall s':>14s} {'median CPU s':>13s}  runs (wall s)")
    for name in runs:
        print(f"{name:36s} {statistics.median(times[name]):14.2f} {statistics.median(cpu[name]):13.2f}  "
              + " ".join(f"{x:.2f}" for x in times[name]))
    print(f"{'check / read, median of ' + str(rounds) + ' paired ratios':36s} {statistics.median(ratios):14.2f}  "
          + " ".join(f"{x:.2f}" for x in ratios))
    if baseline:
        same = outputs["traindoc data check"] == outputs[list(runs)[2]]
        print(f"findings of the two versions identical: {'yes' if same else 'NO'} "
              f"({len(outputs['traindoc data check'])} findings)")
        base = [b / a for a, b in zip(times[list(runs)[0]], times[list(runs)[2]])]
        print(f"{'baseline / read, median paired ratio':36s} {statistics.median(base):14.2f}  "
              + " ".join(f"{x:.2f}" for x in base))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=5_000_000)
    ap.add_argument("--dir", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "traindoc-bench-data"))
    ap.add_argument("--big", action="store_true", help="also a dataset 4x as large (traindoc's peak RSS)")
    ap.add_argument("--skip-pandas", action="store_true")
    ap.add_argument("--others", metavar="PYTHON", help="a python with deepchecks and whylogs installed")
    ap.add_argument("--others-rows", type=int, default=500_000)
    ap.add_argument("--sketches", action="store_true", help="only compare the quantile sketches")
    ap.add_argument("--vs-read", action="store_true",
                    help="only the check against pyarrow's read and decode of the same files (uncached, A B A B)")
    ap.add_argument("--rounds", type=int, default=3, help="--vs-read: rounds of A B")
    ap.add_argument("--baseline", metavar="DIR", help="--vs-read: also check with the traindoc package in DIR")
    a = ap.parse_args()
    if a.sketches:
        return sketches()
    folder = os.path.join(a.dir, f"{a.rows}")
    if a.vs_read:
        generate(folder, a.rows)
        return vs_read(folder, a.rounds, a.baseline)
    t = time.perf_counter()
    truth = generate(folder, a.rows)
    print(f"data: {folder} ({a.rows:,} rows x 20 numeric + seq + label, {len(os.listdir(os.path.join(folder, 'train')))} "
          f"shards; generated/found in {time.perf_counter() - t:.0f} s); cpus {os.cpu_count()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE")
    td = [sys.executable, "-m", "traindoc", "data", "check", os.path.join(folder, "train"), "--val",
          os.path.join(folder, "val.parquet"), "--label", "clicked", "--json"]
    cache = os.path.join(folder, "cache")
    rows = []

    def add(name, wall, rss, found, note="", n=None):
        cpu = _measure.cpu
        rows.append((name, wall, (n or a.rows) / wall if wall else 0, rss, found, note, cpu))
        print(f"  {name}: {wall:.1f} s, CPU {cpu:.1f} s, {rss:,.0f} MB, {note}", flush=True)

    import shutil

    shutil.rmtree(cache, ignore_errors=True)
    wall, rss, out, rc = _measure([*td, "--cache-dir", cache], env)
    doc = json.loads(out)
    add("traindoc (cold)", wall, rss, verify_traindoc(doc, truth),
        f"exit {rc}; scan {doc['data']['stats'].get('map_seconds')} s, exact {doc['data']['stats'].get('exact_seconds')} s")
    wall, rss, out, rc = _measure([*td, "--cache-dir", cache], env)
    add("traindoc (re-check, cached)", wall, rss, verify_traindoc(json.loads(out), truth),
        f"check itself {json.loads(out)['data']['stats']['seconds']} s")
    if not a.skip_pandas:
        wall, rss, out, rc = _measure([sys.executable, __file__, "--_child", "pandas", folder], env)
        res = json.loads(out.split("RESULT ", 1)[1]) if "RESULT " in out else None
        add("pandas", wall, rss, verify_pandas(res, truth) if res else [], "" if res else f"failed (exit {rc})")
    if a.others:
        for tool in ("deepchecks", "whylogs"):
            wall, rss, out, rc = _measure([a.others, __file__, "--_child", tool, folder, str(a.others_rows)], env)
            res = json.loads(out.split("RESULT ", 1)[1]) if "RESULT " in out else {"note": f"failed (exit {rc})"}
            add(tool, wall, rss, [], res["note"] + (f"; flagged: {', '.join(res.get('flagged', []))}" if res.get("flagged") else ""),
                n=min(a.others_rows, a.rows))
    big = None
    if a.big:
        bf = os.path.join(a.dir, f"{4 * a.rows}")
        generate(bf, 4 * a.rows)
        cmd = [sys.executable, "-m", "traindoc", "data", "check", os.path.join(bf, "train"), "--val",
               os.path.join(bf, "val.parquet"), "--label", "clicked", "--json", "--no-cache"]
        wall, rss, out, rc = _measure(cmd, env)
        big = (4 * a.rows, wall, rss, len(verify_traindoc(json.loads(out), generate(bf, 4 * a.rows))), _measure.cpu)
    print(f"\n{'tool':30s} {'wall s':>8s} {'CPU s':>8s} {'rows/s':>12s} {'peak MB':>9s}  planted problems found (of 9)")
    for name, wall, rps, rss, found, note, cpu in rows:
        print(f"{name:30s} {wall:8.1f} {cpu:8.1f} {rps:12,.0f} {rss:9,.0f}  {len(found)}/9 {note}")
    base = {r[0]: r[1] for r in rows}
    if "pandas" in base:
        print(f"\ntraindoc (cold) is {base['pandas'] / base['traindoc (cold)']:.1f}x faster than pandas")
    if big:
        print(f"{big[0]:,} rows (4x): traindoc {big[1]:.1f} s (CPU {big[4]:.1f} s), peak memory {big[2]:,.0f} MB, "
              f"{big[3]}/9 planted problems found")
    print(f"load average at the end {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--_child":
        _child(sys.argv[2:])
    else:
        main()

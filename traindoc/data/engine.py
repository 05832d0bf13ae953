"""Map units to partial profiles (any executor, cached), merge, run the exact row-hash
checks, then the checks on the merged profile only: every executor gives the same answer.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import UserError
from ..fileio import atomic_path, atomic_write
from ..findings import Finding, worst_severity
from .config import Config
from .exact import ExactResult, exact_checks
from .executors import map_units
from .profile import DatasetProfile
from .scan import ScanOptions, scan_unit
from .sources import Unit, resolve

VAL_BASE = 1 << 20  # unit ids of the validation split (row ids stay distinct from training)


def default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "traindoc", "data")


@dataclass
class DataReport:
    findings: list[Finding]
    profile: DatasetProfile
    val_profile: DatasetProfile | None = None
    exact: ExactResult | None = None
    config: Config = field(default_factory=Config)
    stats: dict[str, Any] = field(default_factory=dict)  # seconds, units, cached units, executor

    @property
    def exit_code(self) -> int:
        return 1 if worst_severity(self.findings) == "error" else 0


def _unit_key(uid: int, u: Unit, opts: ScanOptions) -> str:
    try:
        k = u.key()
    except OSError as exc:
        raise UserError(f"{u.path}: cannot stat ({exc.strerror})") from None
    return hashlib.sha256(repr((uid, k, opts.key())).encode()).hexdigest()[:32]


def _task(args: tuple) -> tuple[int, bytes, object, float]:
    uid, unit, opts, hash_path = args
    t = time.perf_counter()
    prof, hashes = scan_unit(uid, unit, opts, hash_path)
    return uid, prof, hashes, time.perf_counter() - t


def _scan(splits: list[tuple[list[Unit], int]], opts: ScanOptions, executor: str, workers: int | None,
          cache: str | None, work: str, progress: Callable[[int], None] | None,
          stats: dict) -> list[tuple[DatasetProfile, list[str], list[str]]]:
    """Per split (its units and first unit id): the profiles (cached or scanned) merged
    in unit order, the hash files and the unit keys. The units of every split go to one
    map, so the validation split's units keep the workers busy as training finishes."""
    remote = executor in ("dask", "ray")
    parts: dict[int, DatasetProfile] = {}
    hash_files: dict[int, str] = {}
    keys: dict[int, str] = {}
    tasks = []
    for units, base in splits:
        for i, u in enumerate(units):
            uid = base + i
            key = _unit_key(uid, u, opts)
            keys[uid] = key
            home = cache or work
            prof_path, hash_path = os.path.join(home, key + ".json"), os.path.join(home, key + ".hashes.parquet")
            if cache and os.path.exists(prof_path) and (not opts.hashes or os.path.exists(hash_path)):
                prof = _read_cached(cache, key, prof_path, hash_path)
                if prof is None:  # a damaged entry is a miss: scan the unit again
                    tasks.append((uid, u, opts, None if remote else os.path.join(work, key + ".hashes.parquet")))
                    continue
                parts[uid] = prof
                hash_files[uid] = hash_path
                stats["cached_units"] = stats.get("cached_units", 0) + 1
                if progress:
                    progress(parts[uid].rows)
                continue
            tasks.append((uid, u, opts, None if remote else hash_path))

    def done(res: tuple) -> None:
        uid, prof_bytes, hashes, secs = res
        key = keys[uid]
        home = cache or work
        if isinstance(hashes, bytes):  # remote executor: write the hashes here
            import pyarrow as pa
            import pyarrow.parquet as pq

            path = os.path.join(home, key + ".hashes.parquet")
            with atomic_path(path) as tmp:
                pq.write_table(pa.ipc.open_stream(hashes).read_all(), tmp, compression="none",
                               use_dictionary=False)
            hashes = path
        if hashes:
            hash_files[uid] = hashes
        if cache:  # written last: a profile in the cache means its hashes are complete
            try:
                atomic_write(os.path.join(home, key + ".json"), prof_bytes)
            except (OSError, UserError) as exc:  # a full disk: the check goes on, this unit is not cached
                _cache_note(cache, f"not written ({getattr(exc, 'strerror', None) or exc})")
        parts[uid] = DatasetProfile.from_bytes(prof_bytes)
        stats["scan_seconds"] = stats.get("scan_seconds", 0.0) + secs
        if progress:
            progress(parts[uid].rows)

    map_units(_task, tasks, executor, workers, done)
    return [_merge_split(range(base, base + len(units)), parts, hash_files, keys, opts.label)
            for units, base in splits]


def _read_cached(cache: str, key: str, prof_path: str, hash_path: str) -> DatasetProfile | None:
    """A unit's cached profile, its entry touched (used: kept past the next prune); None
    when the entry is unreadable (noted in the cache's log)."""
    try:
        with open(prof_path, "rb") as fh:
            prof = DatasetProfile.from_bytes(fh.read())
    except Exception as exc:  # noqa: BLE001 - a damaged entry of any kind is a miss
        _cache_note(cache, f"entry {key} unreadable ({type(exc).__name__}), scanned again")
        return None
    for p in (prof_path, hash_path):
        with contextlib.suppress(OSError):
            os.utime(p)
    return prof


def _merge_split(ids: range, parts: dict[int, DatasetProfile], hash_files: dict[int, str], keys: dict[int, str],
                 label: str | None) -> tuple[DatasetProfile, list[str], list[str]]:
    """One split's profile merged in unit order ("first rows" and row ids are
    deterministic), its hash files and its unit keys."""
    merged = DatasetProfile(label_column=label)
    for uid in ids:
        if uid in parts:
            merged.merge(parts[uid])
    return merged, [hash_files[u] for u in ids if u in hash_files], [keys[u] for u in ids]


def check(paths: list[str], val: list[str] | None = None, *, config: Config | None = None,
          label: str | None = None, exclude: tuple[str, ...] = (), executor: str = "process",
          workers: int | None = None, cache_dir: str | None | bool = None, exact: bool = True,
          progress: Callable[[int, int], None] | None = None) -> DataReport:
    """Check dataset files. ``cache_dir``: None for the default cache, False for none."""
    from .checks import run_checks

    t0 = time.perf_counter()
    cfg = config or Config()
    label = label or cfg.label
    opts = ScanOptions(label=label, exclude=tuple(exclude) + cfg.exclude, hashes=exact)
    units, vunits = resolve(list(paths)), resolve(list(val or []))
    if len(units) >= VAL_BASE or len(vunits) >= VAL_BASE:
        raise UserError(f"too many files ({len(units)}); merge small files first")
    cache = None if cache_dir is False else (cache_dir or default_cache_dir())
    if cache:
        cache = _usable_cache(cache)
    if label and units:
        _early_label_check(units[0], label)
    total = _total_rows(units + vunits)
    seen = [0]

    def tick(n: int) -> None:
        seen[0] += n
        if progress:
            progress(seen[0], total)

    stats: dict[str, Any] = {"executor": executor, "units": len(units) + len(vunits), "cached_units": 0}
    work = tempfile.mkdtemp(prefix="traindoc-data-")
    try:
        scanned = _scan([(units, 0)] + ([(vunits, VAL_BASE)] if vunits else []), opts, executor, workers,
                        cache, work, tick, stats)
        prof, hfiles, keys = scanned[0]
        vprof, vfiles, vkeys = scanned[1] if vunits else (None, [], [])
        # No rows: nothing to check, and "no findings" would pass CI on an empty export
        # (a header-only CSV, a zero-row Parquet); the Parquet schema already served the
        # --label check above, so a wrong label still names the column.
        for ps, pr in ((paths, prof), (val or [], vprof)):
            if pr is not None and ps and pr.rows == 0:
                raise UserError(f"{', '.join(str(x) for x in ps)}: no rows")
        if label and label not in prof.columns:
            raise UserError(f"--label {label}: no such column; columns are "
                            + ", ".join(list(prof.columns)[:20]))
        ex = None
        stats["map_seconds"] = round(time.perf_counter() - t0, 3)
        if exact:
            t1 = time.perf_counter()
            ex = _exact(hfiles, vfiles, bool(label), keys + vkeys, opts, cache, work)
            stats["exact_seconds"] = round(time.perf_counter() - t1, 3)
        findings = run_checks(prof, vprof, ex, cfg)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if cache:
        _prune(cache)
    stats["seconds"] = round(time.perf_counter() - t0, 3)
    stats["rows"] = prof.rows
    return DataReport(findings, prof, vprof, ex, cfg, stats)


PRUNE_DAYS = 14


def _prune(cache: str) -> None:
    """Drop cache entries unused for PRUNE_DAYS (row hashes take ~32 bytes a row)."""
    old = time.time() - PRUNE_DAYS * 86400
    try:
        with os.scandir(cache) as it:
            for e in it:
                if e.is_file() and e.stat().st_mtime < old:
                    os.unlink(e.path)
    except OSError:
        pass  # a cache problem never fails a check


def _early_label_check(u: Unit, label: str) -> None:
    """A wrong --label fails before the scan, not after it (Parquet: from the footer)."""
    if u.kind != "parquet":
        return
    import pyarrow.parquet as pq

    def names(fields, prefix=""):
        import pyarrow as pa

        for f in fields:
            if pa.types.is_struct(f.type):
                yield from names(list(f.type), f"{prefix}{f.name}.")
            else:
                yield prefix + f.name

    cols = list(names(pq.read_schema(u.path))) + [k for k, _ in u.partition]
    if label not in cols:
        raise UserError(f"--label {label}: no such column in {u.path}; columns are " + ", ".join(cols[:20]))


def check_partials(train: list[tuple[int, bytes, bytes | None]],
                   val: list[tuple[int, bytes, bytes | None]] | None = None, *,
                   config: Config | None = None) -> DataReport:
    """Merge and check partial results computed elsewhere (Spark's ``mapInArrow``, a job
    array): each ``(unit id, profile bytes, hash IPC bytes)`` from ``scan.scan_unit(uid,
    unit, opts, None)``, unit ids from ``sources.resolve`` order (validation units from
    ``VAL_BASE``). Same merge, same exact checks, same findings as ``check``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .checks import run_checks

    cfg = config or Config()
    work = tempfile.mkdtemp(prefix="traindoc-data-")
    try:
        merged, files = [], []
        for results in (train, val or []):
            prof, paths = None, []
            for uid, pbytes, hbytes in sorted(results, key=lambda r: r[0]):
                part = DatasetProfile.from_bytes(pbytes)
                prof = part if prof is None else prof.merge(part)
                if hbytes:
                    paths.append(os.path.join(work, f"{uid}.parquet"))
                    pq.write_table(pa.ipc.open_stream(hbytes).read_all(), paths[-1])
            merged.append(prof)
            files.append(paths)
        prof, vprof = merged[0] or DatasetProfile(), merged[1]
        ex = exact_checks(files[0], files[1], prof.label_column is not None, work) if files[0] else None
        findings = run_checks(prof, vprof, ex, cfg)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return DataReport(findings, prof, vprof, ex, cfg, {"executor": "external", "rows": prof.rows})


def _exact(hfiles, vfiles, has_label, keys, opts, cache, work) -> ExactResult:
    """The exact checks, cached as a whole: they depend on every unit."""
    key = hashlib.sha256(repr((keys, opts.key(), has_label)).encode()).hexdigest()[:32]
    path = os.path.join(cache, key + ".exact.json") if cache else None
    if path and os.path.exists(path):
        try:
            with open(path) as fh:
                res = ExactResult.from_json(json.load(fh))
            with contextlib.suppress(OSError):
                os.utime(path)
            return res
        except Exception as exc:  # noqa: BLE001 - damaged: compute again
            _cache_note(cache, f"entry {os.path.basename(path)} unreadable ({type(exc).__name__}), computed again")
    res = exact_checks(hfiles, vfiles, has_label, work)
    if path:
        try:
            atomic_write(path, json.dumps(res.to_json()))
        except (OSError, UserError) as exc:
            _cache_note(cache, f"not written ({getattr(exc, 'strerror', None) or exc})")
    return res


_NOTED: set[str] = set()


def _cache_note(cache: str, what: str) -> None:
    """The cache is an optimisation: a problem with it is one line on stderr, never a failure."""
    if what not in _NOTED:
        _NOTED.add(what)
        print(f"traindoc: data check cache {cache}: {what}", file=sys.stderr)


def _usable_cache(cache: str) -> str | None:
    try:
        os.makedirs(cache, exist_ok=True)
        probe = os.path.join(cache, f".probe.{os.getpid()}")
        with open(probe, "w"):
            pass
        os.remove(probe)
        return cache
    except OSError as exc:
        _cache_note(cache, f"unusable ({exc.strerror or exc}); checking without it")
        return None


def _total_rows(units: list[Unit]) -> int | None:
    """Rows known without reading (Parquet metadata, .npy shape); None if any unknown."""
    import pyarrow.parquet as pq

    total = 0
    for u in units:
        if u.kind == "parquet":
            md = pq.ParquetFile(u.path).metadata
            total += sum(md.row_group(i).num_rows for i in (u.row_groups or ()))
        elif u.kind == "npy":
            total += (u.stop or 0) - u.start
        else:
            return None
    return total

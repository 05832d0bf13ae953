"""Executors of the map (a unit -> partial profile bytes + row hashes): in this process, on
a local process pool, or scaled out on Dask distributed or Ray (the hashes then come back
as Arrow IPC bytes); the merge and the checks stay in the engine, so every executor gives
the same findings. The workers must see the dataset paths (a shared file
system, or an fsspec/NFS mount at the same path).

Spark has no executor here: run ``scan.scan_unit`` per unit inside ``mapInArrow`` (each
returns a one-row batch holding the two byte strings), collect, then call
``engine.merge_and_check`` on the results (see the README).

Transport is bytes (JSON profiles and Arrow IPC), never pickled user data.
"""

from __future__ import annotations

import os
import sys
from typing import Callable

from ..errors import UserError

EXECUTORS = ("process", "serial", "dask", "ray")


def dask_map(task: Callable, tasks: list[tuple], done: Callable[[tuple], None]) -> None:
    """On the current ``distributed.Client`` (``Client(address)`` before the check),
    else on a LocalCluster started for this check and closed after it."""
    try:
        from distributed import Client, LocalCluster, as_completed, get_client
    except ImportError:
        raise UserError("--executor dask needs dask distributed: pip install 'traindoc[dask]'") from None
    try:
        client, own = get_client(), None
    except ValueError:
        own = LocalCluster(processes=True, dashboard_address=None)
        client = Client(own)
    try:
        futures = [client.submit(task, t, pure=False) for t in tasks]
        for fut in as_completed(futures):
            done(fut.result())
    finally:
        if own is not None:
            client.close()
            own.close()


def ray_map(task: Callable, tasks: list[tuple], done: Callable[[tuple], None]) -> None:
    """On the connected Ray cluster (``ray.init(address)`` before the check), else a local
    one started for this check (left running: Ray's start-up is seconds)."""
    try:
        import ray
    except ImportError:
        raise UserError("--executor ray needs ray: pip install 'traindoc[ray]'") from None
    if not ray.is_initialized():
        ray.init(include_dashboard=False, log_to_driver=False)
    remote = ray.remote(task)
    pending = [remote.remote(t) for t in tasks]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        done(ray.get(ready[0]))


_TUNED = []


def tune_allocator() -> None:
    """Keep freed memory for reuse in a process that only scans (the pool's workers, the
    CLI): Arrow's buffers from the system allocator instead of mimalloc, which hands freed
    pages back to the OS at once, and glibc's malloc neither mmaps nor trims the 1-10 MB
    arrays a batch makes. Every batch otherwise faults its temporaries in afresh: measured
    at a third of a worker's CPU time, most of it system time. Not done in a user's
    process (``check_data`` in the training script): the settings are process-wide."""
    if _TUNED:
        return
    _TUNED.append(True)
    try:
        import pyarrow as pa

        pa.set_memory_pool(pa.system_memory_pool())
    except Exception:  # noqa: BLE001 - an optimisation only
        pass
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL("libc.so.6")
            if not libc.mallopt(-3, 256 << 20):  # M_MMAP_THRESHOLD: blocks below 256 MB from the heap
                libc.mallopt(-3, 32 << 20)  # where glibc caps it (HEAP_MAX_SIZE / 2)
            libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD: keep up to 1 GB of freed heap
        except (OSError, AttributeError):  # not glibc (musl): the defaults stay
            pass


def map_units(task: Callable, tasks: list[tuple], executor: str, workers: int | None,
              done: Callable[[tuple], None]) -> None:
    """Run ``task`` over ``tasks`` on ``executor``; ``done`` gets each result as it arrives."""
    if not tasks:
        return
    workers = workers or os.cpu_count() or 1
    if executor == "serial" or (executor == "process" and (workers == 1 or len(tasks) == 1)):
        for t in tasks:
            done(task(t))
    elif executor == "process":
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # fork: workers inherit the imported modules (no second 1-3 s import of pyarrow
        # and torch); the parent has no DuckDB connection or thread pool open yet.
        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
        torch = sys.modules.get("torch")
        if ctx is not None and torch is not None and torch.cuda.is_initialized():
            ctx = mp.get_context("spawn")  # a forked child of a CUDA process must not touch CUDA; be safe
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=ctx,
                                 initializer=tune_allocator) as pool:
            for fut in as_completed([pool.submit(task, t) for t in tasks]):
                done(fut.result())
    elif executor == "dask":
        dask_map(task, tasks, done)
    elif executor == "ray":
        ray_map(task, tasks, done)
    else:
        raise UserError(f"unknown executor {executor!r}; one of {', '.join(EXECUTORS)}")

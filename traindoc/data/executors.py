"""Scale-out executors: the same map (a unit -> partial profile bytes + row hashes as
Arrow IPC bytes) on Dask distributed or Ray; the merge and the checks stay here, so every
executor gives the same findings. The workers must see the dataset paths (a shared file
system, or an fsspec/NFS mount at the same path).

Spark has no executor here: run ``scan.scan_unit`` per unit inside ``mapInArrow`` (each
returns a one-row batch holding the two byte strings), collect, then call
``engine.merge_and_check`` on the results (see the README).

Transport is bytes (JSON profiles and Arrow IPC), never pickled user data.
"""

from __future__ import annotations

from typing import Callable

from ..errors import UserError


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

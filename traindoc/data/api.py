"""``traindoc.check_data(dataset)``: the data check from Python.

``dataset`` is a path or a list of paths (as on the command line), or data in memory: a
pyarrow Table, a pandas DataFrame, a dict of NumPy arrays, a NumPy array, or a PyTorch
``Dataset`` (map-style or iterable) whose items are tensors, numbers, tuples or dicts.
In-memory data is written to temporary Parquet files (uncached) and checked like files;
rows are then dataset indices, so ``location.rows`` indexes ``dataset[i]``.

A PyTorch item becomes one row: a tuple's parts are columns ``"0"``, ``"1"``, ...; a
dict's keys are columns (nested dicts get dotted names); a 0-d tensor is a number; a
1-d or larger tensor of the same length in every item is one column per element
(``x.0`` ... ``x.19``: each feature is profiled); a tensor whose length varies is a
sequence (list) column, whose lengths are checked. ``label="1"`` names the target of
``(input, target)`` pairs.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Callable, Iterable

from ..errors import UserError

CHUNK = 65_536  # items per temporary Parquet file


def require() -> None:
    """One clear line when the ``traindoc[data]`` extra is missing."""
    missing = []
    for mod in ("pyarrow", "duckdb"):
        try:
            __import__(mod)
        except ImportError:
            missing.append(mod)
    if missing:
        raise UserError(f"traindoc data check needs {' and '.join(missing)}: "
                        "pip install 'traindoc[data]'")


def check_data(dataset: Any, *, label: str | None = None, val: Any = None, config: Any = None,
               executor: str = "process", workers: int | None = None, cache: bool | str = True,
               progress: Callable[[int, int | None], None] | None = None):
    """Check a dataset; returns a ``DataReport`` (``.findings``, ``.profile``, ``.exit_code``).

    ``config``: a ``Config``, a path to a TOML file, or None for ``traindoc.toml`` /
    ``pyproject.toml`` in the working folder. ``cache``: True (the user cache), False,
    or a folder. ``executor``: process (default, all cores), serial, dask, ray.
    """
    require()
    from . import config as cfgmod
    from .engine import check

    if config is None or isinstance(config, (str, os.PathLike)):
        config = cfgmod.load(str(config) if config is not None else None)
    with tempfile.TemporaryDirectory(prefix="traindoc-mem-") as tmp:
        paths, in_memory = _paths(dataset, os.path.join(tmp, "train"))
        vpaths, v_mem = _paths(val, os.path.join(tmp, "val")) if val is not None else ([], False)
        cache_dir: Any = None if cache is True else cache
        if in_memory or v_mem:
            cache_dir = False  # temporary files: a cache entry could never be hit again
        return check(paths, vpaths, config=config, label=label, executor=executor, workers=workers,
                     cache_dir=cache_dir, progress=progress)


def _paths(data: Any, folder: str) -> tuple[list[str], bool]:
    if isinstance(data, (str, os.PathLike)):
        return [os.fspath(data)], False
    if isinstance(data, (list, tuple)) and data and all(isinstance(p, (str, os.PathLike)) for p in data):
        return [os.fspath(p) for p in data], False
    os.makedirs(folder)
    tables = _tables(data)
    n = 0
    import pyarrow.parquet as pq

    for i, t in enumerate(tables):
        pq.write_table(t, os.path.join(folder, f"part-{i:06d}.parquet"))
        n += 1
    if not n:
        raise UserError("the dataset is empty")
    return [folder], True


def _tables(data: Any) -> Iterable:
    import numpy as np
    import pyarrow as pa

    if isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    if isinstance(data, pa.Table):
        return [data]
    if type(data).__module__.startswith("pandas"):
        return [pa.Table.from_pandas(data, preserve_index=False)]
    if isinstance(data, np.ndarray):
        data = {"x": data}
    if isinstance(data, dict) and all(isinstance(v, np.ndarray) for v in data.values()):
        from .sources import _np_columns

        cols: dict = {}
        for k, v in data.items():
            cols.update(_np_columns(str(k), v))
        return [pa.table(cols)]
    if hasattr(data, "__getitem__") or hasattr(data, "__iter__"):
        return _torch_tables(data)
    raise UserError(f"cannot check a {type(data).__name__}: give paths, a DataFrame, a pyarrow "
                    "Table, NumPy arrays or a PyTorch Dataset")


def _items(ds: Any) -> Iterable:
    """Map-style datasets by index 0..len-1 (rows are dataset indices); iterable ones in order."""
    if hasattr(ds, "__len__") and hasattr(ds, "__getitem__"):
        return (ds[i] for i in range(len(ds)))
    return iter(ds)


def _flat(item: Any, prefix: str, out: dict) -> None:
    import numpy as np

    if isinstance(item, dict):
        for k, v in item.items():
            _flat(v, f"{prefix}.{k}" if prefix else str(k), out)
    elif isinstance(item, (tuple, list)):
        for i, v in enumerate(item):
            _flat(v, f"{prefix}.{i}" if prefix else str(i), out)
    else:
        if hasattr(item, "detach"):  # a torch tensor: no import of torch needed here
            item = item.detach().cpu().numpy()
        if isinstance(item, np.ndarray) and item.ndim == 0:
            item = item.item()
        out[prefix or "0"] = item


def _torch_tables(ds: Any) -> Iterable:
    import numpy as np
    import pyarrow as pa

    fixed: dict[str, int | None] | None = None  # column -> vector length (None: a sequence)
    rows: list[dict] = []

    def table(rows: list[dict]):
        nonlocal fixed
        if fixed is None:
            fixed = {}
            for k in rows[0]:
                vals = [r.get(k) for r in rows]
                if isinstance(vals[0], np.ndarray):
                    lens = {v.size for v in vals if isinstance(v, np.ndarray)}
                    fixed[k] = lens.pop() if len(lens) == 1 and vals[0].dtype.kind == "f" else None
        cols = {}
        for k in rows[0]:
            vals = [r.get(k) for r in rows]
            if isinstance(vals[0], np.ndarray):
                if fixed.get(k):
                    try:
                        m = np.stack([np.asarray(v).reshape(-1) for v in vals])
                    except ValueError:
                        raise UserError(f"dataset item field {k!r} changes length; it was {fixed[k]} "
                                        "in the first items") from None
                    if m.shape[1] != fixed[k]:
                        raise UserError(f"dataset item field {k!r} changes length from {fixed[k]} to {m.shape[1]}")
                    for j in range(m.shape[1]):
                        cols[f"{k}.{j}"] = pa.array(m[:, j])
                else:
                    cols[k] = pa.array([np.asarray(v).reshape(-1) for v in vals])
            else:
                try:
                    cols[k] = pa.array(vals)
                except (pa.ArrowException, TypeError) as exc:
                    raise UserError(f"dataset item field {k!r}: cannot make a column ({exc})") from None
        return pa.table(cols)

    for item in _items(ds):
        row: dict = {}
        _flat(item, "", row)
        rows.append(row)
        if len(rows) == CHUNK:
            yield table(rows)
            rows = []
    if rows:
        yield table(rows)

"""``traindoc data check``: dataset files (or a PyTorch ``Dataset``) -> mergeable column
profiles -> findings for the data causes of the taxonomy.

Layers: ``sources`` (files -> units -> Arrow batches), ``scan`` (a unit -> a partial
profile and row hashes: the map), ``profile`` / ``sketch`` (mergeable statistics),
``exact`` (duplicates, conflicts, leakage in DuckDB), ``engine`` (executors, cache,
merge), ``checks/`` (one file per name), ``render`` / ``html`` (output).

Importing this package is light: pyarrow and duckdb (the ``traindoc[data]`` extra) are
imported only when a check runs.
"""

from .api import check_data

__all__ = ["check_data"]

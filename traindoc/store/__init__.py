"""The run store: one folder per run, one SQLite file (WAL) per rank.

``RunWriter`` is fed from the training process and writes in a background thread;
``open_run`` reads a folder (also while the run is still going).
"""

from .reader import Run, Series, open_run
from .writer import RunWriter

__all__ = ["Run", "RunWriter", "Series", "open_run"]

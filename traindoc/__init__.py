"""traindoc: find why a PyTorch training run went NaN, spiked or would not converge.

The public API is small; the CLI (``traindoc``) is a thin layer over it.
"""

__version__ = "0.1.0"

from .data import check_data
from .diagnose import Diagnosis, diagnose
from .findings import Finding
from .lint import lint
from .monitor import Monitor, watch
from .store import Run, open_run

__all__ = [
    "Diagnosis",
    "Finding",
    "Monitor",
    "Run",
    "__version__",
    "check_data",
    "diagnose",
    "lint",
    "open_run",
    "watch",
]

"""traindoc: find why a PyTorch training run went NaN, spiked or would not converge.

The public API is small; the CLI (``traindoc``) is a thin layer over it. Names are
imported on first use (PEP 562), so ``traindoc lint`` and ``traindoc data check`` start
without importing torch (seconds saved in every pre-commit hook and CI job).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> module that defines it
_LAZY = {
    "Diagnosis": ".diagnose",
    "Finding": ".findings",
    "Monitor": ".monitor",
    "Run": ".store",
    "check_data": ".data",
    "confirm": ".confirm",
    "diagnose": ".diagnose",
    "lint": ".lint",
    "load_any": ".importers",
    "open_run": ".store",
    "replay_bundle": ".forensics",
    "watch": ".monitor",
}

__all__ = sorted([*_LAZY, "__version__"])

if TYPE_CHECKING:  # for type checkers and IDEs
    from .confirm import confirm
    from .data import check_data
    from .diagnose import Diagnosis, diagnose
    from .findings import Finding
    from .forensics import replay_bundle
    from .importers import load_any
    from .lint import lint
    from .monitor import Monitor, watch
    from .store import Run, open_run


# ``diagnose`` and ``lint`` are also submodule names: importing the submodule (e.g.
# ``from traindoc.diagnose import Diagnosis``) makes Python set ``traindoc.diagnose`` to
# the module, shadowing the function. Bind them now (neither imports torch: ~50 ms), so
# the later submodule import finds them already loaded and leaves the attribute alone.
from .diagnose import Diagnosis, diagnose  # noqa: E402
from .lint import lint  # noqa: E402  (the package is also callable, for the same reason)


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'traindoc' has no attribute {name!r}")
    value = getattr(importlib.import_module(mod, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

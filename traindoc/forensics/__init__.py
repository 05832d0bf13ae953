"""Forensics: from a non-finite step to the op, the module and the samples.

Replay-time tools (nothing here runs during training):

- :func:`first_nonfinite`: the first aten op that made a NaN/Inf, its module and inputs;
- :func:`find_bad_samples` / :func:`slice_batch`: group testing over the batch;
- :func:`replay_bundle` (:mod:`.analyze`, :mod:`.replay`): re-execute the script on a bundled
  step: location, group testing, per-sample loss, PaLM's triage of data against state;
- :mod:`.bundle`: the step, stored safely (tensors + JSON, no pickle);
- :mod:`.findings`: the results as taxonomy ``Finding`` objects, and their loader for diagnose.
"""

import importlib
from typing import Any

# imported on first use: the replay tools need torch, the CLI parser and the findings
# loader (traindoc diagnose) must not pay for it
_LAZY = {
    "BisectResult": ".bisect", "batch_size_of": ".bisect", "find_bad_samples": ".bisect",
    "max_calls": ".bisect", "slice_batch": ".bisect",
    "NonfiniteReport": ".locate", "OpEvent": ".events", "first_nonfinite": ".locate",
}


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'traindoc.forensics' has no attribute {name!r}")
    value = getattr(importlib.import_module(mod, __name__), name)
    globals()[name] = value
    return value


def replay_bundle(path, write: bool = True, *, sandbox: bool = True, yes: bool = False) -> dict:
    """Replay a bundle (``RUN/bundles/step-...``) by re-executing its script in a child
    process inside the operating-system sandbox (:mod:`traindoc.sandbox`); returns the
    forensics document (first non-finite op, bad samples, triage, findings) and, with
    ``write``, stores it as ``forensics.json`` in the bundle. Same as ``traindoc replay``.

    ``sandbox=False`` runs it where no sandbox exists (the script's writes are real);
    ``yes=True`` accepts a bundle written on another machine or at another path. Bad input,
    a missing sandbox, a changed script: :class:`traindoc.errors.UserError`."""
    from .isolate import replay

    _rc, res = replay(path, quiet=True, write=write, no_sandbox=not sandbox, yes=yes)
    if res is None:
        from ..errors import UserError

        raise UserError(f"{path}: the replay produced no result")
    return res


__all__ = [
    "BisectResult",
    "NonfiniteReport",
    "OpEvent",
    "batch_size_of",
    "find_bad_samples",
    "first_nonfinite",
    "max_calls",
    "replay_bundle",
    "slice_batch",
]

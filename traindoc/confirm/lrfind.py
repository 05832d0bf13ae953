"""``traindoc lr-find SCRIPT [ARGS...]``: the LR range test on an unmodified script.

The script runs once in a sandboxed child (like the confirmation experiments) while the
``lr-range-test`` experiment sweeps the learning rate exponentially, one rate per
optimizer step, and stops when the loss diverges. The user's own process and files are
untouched: nothing to restore afterwards, whatever the script does (AMP, accumulation,
param groups, schedulers: the sweep acts at the optimizer step).

Reading the curve (:func:`suggest`). A range test's loss at step t reflects every update
before it, so the curve is a lagging, noisy picture of "how fast does this rate learn".
Two choices follow, each a property of the test rather than a fit to a benchmark:

- smoothing is centred (a moving median over a window of 1/10 of the sweep, then a
  moving mean of the same width), never a causal EMA: an EMA with factor 0.98 lags ~50
  steps, which on a 100-step sweep over 8 decades moves the curve by half a decade
  towards the rates that break training;
- the suggestion is a tenth of the rate at the smoothed minimum, the edge of stability
  (the rate where the loss stops falling is the largest that still trains during the
  sweep; a constant rate that long must sit well below it), with a safe interval from a
  thirtieth to a third of it. The steepest slope (torch-lr-finder, Lightning) is not
  used: on a curve whose loss plunges then dies at chance level (Adam past ~1e-2 on a
  CNN) the steepest point is on the cliff.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import UserError


@dataclass
class LrFind:
    lrs: list[float] = field(default_factory=list)
    losses: list[float] = field(default_factory=list)
    smoothed: list[float] = field(default_factory=list)
    edge: float | None = None  # the rate at the smoothed minimum
    suggestion: float | None = None
    interval: tuple[float, float] | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return x if x is not None and math.isfinite(x) else None

        return {"suggestion": self.suggestion, "interval": list(self.interval) if self.interval else None,
                "edge": self.edge, "note": self.note,
                "curve": [[lr, num(v), num(s)] for lr, v, s in zip(self.lrs, self.losses, self.smoothed)]}


def _centred(v: np.ndarray, w: int) -> np.ndarray:
    """Moving median then moving mean over a centred window of ``w`` points (shrinking at
    the ends): robust to single bad batches, with no lag."""
    n = len(v)
    h = w // 2
    med = np.array([np.median(v[max(0, i - h): i + h + 1]) for i in range(n)])
    return np.array([med[max(0, i - h): i + h + 1].mean() for i in range(n)])


def suggest(lrs: list[float], losses: list[float]) -> LrFind:
    r = LrFind(list(map(float, lrs)), list(map(float, losses)))
    v = np.asarray(r.losses, dtype=float)
    finite = np.isfinite(v)
    end = int(np.argmin(finite)) if not finite.all() else len(v)  # the sweep stops at the first NaN
    if end < 8:
        r.smoothed = [math.nan] * len(v)
        r.note = f"only {end} finite steps: the loss broke at once (the sweep's start rate is already too high, " \
                 f"or the script fails whatever the rate)"
        return r
    s = _centred(v[:end], max(3, end // 10) | 1)
    r.smoothed = list(s) + [math.nan] * (len(v) - end)
    i = int(np.argmin(s))
    start_level = float(np.median(s[: max(3, end // 10)]))
    if s[i] >= 0.97 * start_level:
        r.note = "the loss never fell during the sweep: no rate trains this script in so few steps (check " \
                 "the model, the loss and the data first: traindoc overfit)"
        return r
    r.edge = r.lrs[i]
    r.suggestion = r.edge / 10
    r.interval = (r.edge / 30, r.edge / 3)
    if i >= end - max(2, end // 20) and end == len(v):
        r.note = "the loss was still falling at the sweep's last rate: raise --end to see where it breaks"
    return r


def run(script: str, args: list[str], *, module: bool = False, steps: int = 100, start: float = 1e-7,
        end: float = 10.0, seconds: float = 300.0, no_sandbox: bool = False) -> LrFind:
    from .reexec import reexecute, sandbox_mode
    from .registry import Variant

    if not module and not Path(script).is_file():
        raise UserError(f"{script}: no such script")
    if not (0 < start < end) or steps < 10:
        raise UserError("lr-find needs 0 < --start < --end and --steps of at least 10")
    mode = sandbox_mode(no_sandbox, "the sweep runs your script, whose checkpoints would then overwrite yours")
    cmd = {"script": script, "module": module, "args": args, "cwd": os.getcwd()}
    v = Variant("lr-range-test", tuple(sorted({"start": start, "end": end, "steps": steps}.items())))
    s = reexecute("lr-range-test", v, cmd, {}, steps + 1, seconds, mode, os.cpu_count() or 1, None)
    sweep = s.notes.get("sweep") or []
    if not sweep:
        raise UserError(f"the script reached no optimizer step under the sweep ({s.error or s.status})")
    r = suggest([a for a, _ in sweep], [b for _, b in sweep])
    if len(sweep) < steps and math.isfinite(r.losses[-1]) and r.edge is not None and r.lrs[-1] < end and \
            s.status == "finished":
        r.note = (r.note + " " if r.note else "") + f"the script ended after {len(sweep)} steps, at rate " \
                 f"{r.lrs[-1]:.2g}: the sweep did not reach --end"
    return r


def plot(r: LrFind, path: Path) -> None:
    """An interactive HTML plot (plotly, one self-contained file)."""
    import plotly.graph_objects as go

    fig = go.Figure()
    fig.add_scatter(x=r.lrs, y=r.losses, mode="markers", name="loss per step", marker={"size": 4, "opacity": 0.5})
    fig.add_scatter(x=r.lrs, y=r.smoothed, mode="lines", name="smoothed (centred)")
    if r.suggestion:
        fig.add_vline(x=r.suggestion, line_dash="dash", annotation_text=f"suggested {r.suggestion:.2g}")
        fig.add_vrect(x0=r.interval[0], x1=r.interval[1], opacity=0.1, line_width=0)
    fig.update_xaxes(type="log", title="learning rate")
    fig.update_yaxes(title="training loss")
    fig.update_layout(title="traindoc lr-find", template="plotly_white")
    from ..fileio import atomic_write

    atomic_write(path, fig.to_html(include_plotlyjs=True, full_html=True).encode())

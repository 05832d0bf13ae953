"""``traindoc init-check SCRIPT [ARGS...]``: activations and gradients by depth at step 0.

The seeds' check before training a deep net: print each layer's activation std on the
first batch; they should stay within about 0.5-1.5 through the depth, and a layer whose
std jumps above 10 means the initialisation (or a missing normalisation) is wrong. The
script runs one optimizer step, unmodified, in a sandboxed child under the monitor with
every measurement sampled; this reads the first step's activation std of every layer
with parameters (in forward order) and its gradient norm.

What is flagged, and why these numbers:
- a hidden layer's activation std above 10 (the seeds' alarm) or below 0.01: the
  signal is exploding or has all but vanished at that depth (the output layer is shown,
  not judged: its std is the spread of the predictions);
- a trend over depth: the last layer's std over the first's above 10x or below 1/10
  (each layer multiplies the scale: an init off by a constant factor compounds);
- gradient norms: the first layer's over the last's below 1e-3 or above 1e3 (vanishing
  or exploding gradients at initialisation).
The 0.5-1.5 band itself is shown, not flagged: PyTorch's default Linear init shrinks the
std by ~1/sqrt(3) per ReLU layer, so a healthy 6-layer MLP leaves it.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ..errors import UserError

HIGH, LOW = 10.0, 0.01
TREND = 10.0
GRAD_RATIO = 1e3


def read(folder: Path) -> dict[str, Any]:
    from ..rules.evidence import param_modules
    from ..store.reader import open_run

    run = open_run(folder)
    layers = []
    for m, cls in param_modules(run):
        s = run.series(f"act/{m}/std")
        if s.empty:
            continue
        g = [run.series(n) for n in run.names() if n.startswith(f"grad_norm/{m}.") and n.endswith("weight")]
        gn = next((float(x.values[0]) for x in g if not x.empty), math.nan)
        layers.append({"module": m, "class": cls, "std": float(s.values[0]), "grad_norm": gn})
    flags = []
    # the output layer's std is the spread of the predictions across the batch, not a
    # signal carried deeper: shown, not judged
    hidden = layers[:-1] if len(layers) > 1 else layers
    for row in hidden:
        if row["std"] > HIGH or row["std"] < LOW:
            flags.append(f"{row['module']} ({row['class']}): activation std {row['std']:.3g} "
                         f"{'above ' + str(HIGH) if row['std'] > HIGH else 'below ' + str(LOW)}")
    stds = [r["std"] for r in hidden if r["std"] > 0 and math.isfinite(r["std"])]
    if len(stds) >= 3 and (stds[-1] / stds[0] > TREND or stds[-1] / stds[0] < 1 / TREND):
        flags.append(f"the activation std goes from {stds[0]:.3g} to {stds[-1]:.3g} over {len(stds)} layers "
                     f"({stds[-1] / stds[0]:.3g}x): the init scale compounds with depth")
    gns = [r["grad_norm"] for r in layers if r["grad_norm"] > 0 and math.isfinite(r["grad_norm"])]
    if len(gns) >= 3 and (gns[0] / gns[-1] < 1 / GRAD_RATIO or gns[0] / gns[-1] > GRAD_RATIO):
        flags.append(f"the first layer's gradient norm is {gns[0] / gns[-1]:.3g}x the last's: "
                     f"{'vanishing' if gns[0] < gns[-1] else 'exploding'} gradients at initialisation")
    return {"layers": layers, "flags": flags, "ok": not flags}


def run(script: str, args: list[str], *, module: bool = False, seconds: float = 300.0,
        no_sandbox: bool = False) -> dict[str, Any]:
    from .reexec import reexecute, sandbox_mode

    if not module and not Path(script).is_file():
        raise UserError(f"{script}: no such script")
    mode = sandbox_mode(no_sandbox, "this runs your script, whose checkpoints would then overwrite yours")
    cmd = {"script": script, "module": module, "args": args, "cwd": os.getcwd()}
    tmp = Path(tempfile.mkdtemp(prefix="traindoc-init-"))
    try:
        s = reexecute("init", None, cmd, {}, 1, seconds, mode, os.cpu_count() or 1, None, keep=tmp / "run",
                       sample_every=1)
        if not (tmp / "run").is_dir() or s.steps < 1:
            raise UserError(f"the script reached no training step ({s.error or s.status})")
        res = read(tmp / "run")
        if not res["layers"]:
            raise UserError("the first step's activations could not be matched to layers with parameters (no float "
                            "output, or a module reached through two models)")
        return res
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

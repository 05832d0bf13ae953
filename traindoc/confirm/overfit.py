"""``traindoc overfit SCRIPT [ARGS...]``: can this program fit one batch?

The seeds' first check before a long job: repeat the first batch and train on it. A
working model, loss and optimizer drive its loss towards zero within a few hundred steps;
one that cannot has a bug that no amount of data or training time will fix. The script
runs unmodified in a sandboxed child with the ``overfit-batch`` experiment (the first
step's model inputs and loss targets repeated at every step, whatever produced them).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import UserError

CHECKS = (
    "the model's output reaches the loss without a softmax/sigmoid the loss applies itself "
    "(CrossEntropyLoss, BCEWithLogitsLoss take raw logits)",
    "every parameter is in the optimizer and requires grad; the loss is not computed from .detach()ed "
    "or torch.no_grad() tensors",
    "the targets have the shape and type the loss expects (class indices for CrossEntropyLoss)",
    "the learning rate is in the usual range (traindoc lr-find); gradients are cleared once per step",
)


def run(script: str, args: list[str], *, module: bool = False, steps: int = 200, seconds: float = 300.0,
        no_sandbox: bool = False) -> dict[str, Any]:
    from .reexec import reexecute, sandbox_mode
    from .registry import REFUTED, Variant, load_all

    if not module and not Path(script).is_file():
        raise UserError(f"{script}: no such script")
    if steps < 10:
        raise UserError("overfit needs --steps of at least 10")
    mode = sandbox_mode(no_sandbox, "this runs your script, whose checkpoints would then overwrite yours")
    cmd = {"script": script, "module": module, "args": args, "cwd": os.getcwd()}
    s = reexecute("overfit", Variant("overfit-batch"), cmd, {}, steps, seconds, mode, os.cpu_count() or 1, None)
    v = load_all()["overfit-batch"].judge("loss-mismatch", s, s, {})
    fits = v.verdict == REFUTED
    return {"fits": fits if v.effect is not None else None, "verdict": v.text, "steps": s.steps,
            "start": s.start if s.usable else None, "end": s.end if s.usable and s.first_bad is None else None,
            "curve": s.curve(), "checks": [] if fits else list(CHECKS), "error": s.error}

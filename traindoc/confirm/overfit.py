"""``traindoc overfit SCRIPT [ARGS...]``: can this program fit one batch?

The seeds' first check before a long job: repeat the first batch and train on it. A
working model, loss and optimizer drive its loss towards zero within a few hundred steps;
one that cannot has a bug that no amount of data or training time will fix. The script
runs unmodified in a sandboxed child with the ``overfit-batch`` experiment (the first
step's model inputs and loss targets repeated at every step, whatever produced them).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..findings import jsonable

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
    from .registry import REFUTED, Variant, load_all
    from .run import _child, sandbox_mode

    if not module and not Path(script).is_file():
        raise UserError(f"{script}: no such script")
    if steps < 10:
        raise UserError("overfit needs --steps of at least 10")
    mode = sandbox_mode(no_sandbox, "this runs your script, whose checkpoints would then overwrite yours")
    cmd = {"script": script, "module": module, "args": args, "cwd": os.getcwd()}
    s = _child("overfit", Variant("overfit-batch"), cmd, {}, steps, seconds, mode, os.cpu_count() or 1, None)
    v = load_all()["overfit-batch"].judge("loss-mismatch", s, s, {})
    fits = v.verdict == REFUTED
    return {"fits": fits if v.effect is not None else None, "verdict": v.text, "steps": s.steps,
            "start": s.start if s.usable else None, "end": s.end if s.usable and s.first_bad is None else None,
            "curve": s.curve(), "checks": [] if fits else list(CHECKS), "error": s.error}


def _cmd(a: Any) -> int:
    from rich.text import Text

    from ..report.terminal import console

    res = run(a.script, a.args, module=a.module, steps=a.steps, seconds=a.seconds, no_sandbox=a.no_sandbox)
    if a.json:
        print(json.dumps(jsonable(res), allow_nan=False, default=str))
    else:
        c = console()
        style = "bold green" if res["fits"] else "bold red" if res["fits"] is False else "yellow"
        c.print(Text(f"traindoc overfit: {res['verdict']}", style=style))
        for chk in res["checks"]:
            c.print(Text(f"  - check: {chk}"))
    return 0 if res["fits"] else 1


def add_parser(sub: Any) -> None:
    p = sub.add_parser("overfit", help="can the script fit one batch? (the first check before a long job)")
    p.add_argument("--steps", type=int, default=200, help="steps on the repeated batch (default 200)")
    p.add_argument("--seconds", type=float, default=300.0, help="time budget (default 300)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-sandbox", action="store_true", help="run even where no operating-system sandbox is available")
    p.add_argument("-m", dest="module", action="store_true", help="SCRIPT is a module name, as in python -m")
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER)
    p.set_defaults(func=_cmd)

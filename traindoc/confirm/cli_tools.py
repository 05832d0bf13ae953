"""The command lines of ``traindoc lr-find``, ``overfit`` and ``init-check`` (the present
layer: parse, call the experiment in ``confirm/``, render)."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from ..findings import jsonable
from . import initcheck, lrfind, overfit


def _lrfind(a: Any) -> int:
    from rich.text import Text

    from ..report.terminal import console

    r = lrfind.run(a.script, a.args, module=a.module, steps=a.steps, start=a.start, end=a.end, seconds=a.seconds,
            no_sandbox=a.no_sandbox)
    if a.plot:
        lrfind.plot(r, Path(a.plot))
    if a.json:
        print(json.dumps(r.to_dict(), allow_nan=False))
        return 0 if r.suggestion else 1
    c = console()
    c.print(Text(f"traindoc lr-find: {len(r.lrs)} steps, rates {r.lrs[0]:.1e} .. {r.lrs[-1]:.1e}"))
    if r.suggestion:
        c.print(Text(f"suggested learning rate: {r.suggestion:.2g}  (safe interval {r.interval[0]:.2g} .. "
                     f"{r.interval[1]:.2g}; training breaks near {r.edge:.2g})", style="bold"))
    if r.note:
        c.print(Text(r.note, style="yellow"))
    if a.plot:
        c.print(Text(f"plot: {a.plot}"))
    return 0 if r.suggestion else 1


def _add_lrfind(sub: Any) -> None:
    p = sub.add_parser("lr-find", help="LR range test on an unmodified training script: a suggested rate and "
                                       "a safe interval")
    p.add_argument("--steps", type=int, default=100, help="steps of the sweep (default 100)")
    p.add_argument("--start", type=float, default=1e-7, help="first rate (default 1e-7)")
    p.add_argument("--end", type=float, default=10.0, help="last rate (default 10)")
    p.add_argument("--seconds", type=float, default=300.0, help="time budget (default 300)")
    p.add_argument("--plot", metavar="FILE.html", help="write an interactive plot of the sweep")
    _script_arguments(p, _lrfind, json_help="print the suggestion and the curve as JSON")


def _overfit(a: Any) -> int:
    from rich.text import Text

    from ..report.terminal import console

    res = overfit.run(a.script, a.args, module=a.module, steps=a.steps, seconds=a.seconds, no_sandbox=a.no_sandbox)
    if a.json:
        print(json.dumps(jsonable(res), allow_nan=False, default=str))
    else:
        c = console()
        style = "bold green" if res["fits"] else "bold red" if res["fits"] is False else "yellow"
        c.print(Text(f"traindoc overfit: {res['verdict']}", style=style))
        for chk in res["checks"]:
            c.print(Text(f"  - check: {chk}"))
    return 0 if res["fits"] else 1


def _add_overfit(sub: Any) -> None:
    p = sub.add_parser("overfit", help="can the script fit one batch? (the first check before a long job)")
    p.add_argument("--steps", type=int, default=200, help="steps on the repeated batch (default 200)")
    p.add_argument("--seconds", type=float, default=300.0, help="time budget (default 300)")
    _script_arguments(p, _overfit)


def _initcheck(a: Any) -> int:
    from rich.table import Table
    from rich.text import Text

    from ..report.terminal import console

    res = initcheck.run(a.script, a.args, module=a.module, seconds=a.seconds, no_sandbox=a.no_sandbox)
    if a.json:
        print(json.dumps(jsonable(res), allow_nan=False))
        return 0 if res["ok"] else 1
    c = console()
    t = Table(title="activation std and gradient norm by depth, step 0 (the seeds' band: std 0.5-1.5)",
              box=None, header_style="bold")
    for col in ("layer", "class", "activation std", "grad norm"):
        t.add_column(col)
    for r in res["layers"]:
        std = r["std"]
        style = "red" if std > initcheck.HIGH or std < initcheck.LOW else "" if 0.5 <= std <= 1.5 else "yellow"
        t.add_row(Text(r["module"]), Text(r["class"]), Text(f"{std:.3g}", style=style),
                  Text(f"{r['grad_norm']:.3g}" if math.isfinite(r["grad_norm"]) else "-"))
    c.print(t)
    for f in res["flags"]:
        c.print(Text(f"  ! {f}", style="bold red"))
    if res["ok"]:
        c.print(Text("No layer outside the limits (std above 10 or below 0.01, 10x over depth, gradients 1e3x "
                     "apart).", style="green"))
    return 0 if res["ok"] else 1


def _add_initcheck(sub: Any) -> None:
    p = sub.add_parser("init-check", help="activation std and gradient norm by depth at step 0 (before a long job)")
    p.add_argument("--seconds", type=float, default=300.0, help="time budget (default 300)")
    _script_arguments(p, _initcheck)


def _script_arguments(p: Any, func: Any, json_help: str | None = None) -> None:
    """What the three commands share: --json, --no-sandbox, -m, SCRIPT and its arguments."""
    p.add_argument("--json", action="store_true", help=json_help)
    p.add_argument("--no-sandbox", action="store_true", help="run even where no operating-system sandbox is available")
    p.add_argument("-m", dest="module", action="store_true", help="SCRIPT is a module name, as in python -m")
    p.add_argument("script")
    p.add_argument("args", nargs=argparse.REMAINDER)
    p.set_defaults(func=func)


def add_parser(sub: Any) -> None:
    _add_lrfind(sub)
    _add_overfit(sub)
    _add_initcheck(sub)

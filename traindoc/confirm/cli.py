"""``traindoc confirm RUN``: the experiments, their verdicts, then the re-ranked diagnosis."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import UserError

STYLE = {"confirmed": "bold green", "refuted": "red", "inconclusive": "yellow"}


def render_experiments(c: Any, data: dict[str, Any] | None) -> None:
    from rich.table import Table
    from rich.text import Text

    if not data or not data.get("results"):
        return
    runs = data.get("runs") or {}
    base = runs.get("baseline") or {}
    c.print(f"[bold]Experiments[/] ({data.get('steps')} steps each, same seed; without any change: "
            f"{base.get('describe', '?')})")
    t = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    t.add_column("cause")
    t.add_column("change")
    t.add_column("verdict")
    t.add_column("evidence", overflow="fold")
    for r in data["results"]:
        t.add_row(Text(str(r.get("cause"))), Text(str(r.get("change"))),
                  Text(str(r.get("verdict")), style=STYLE.get(r.get("verdict"), "")), Text(str(r.get("text"))))
    c.print(t)
    for cause, why in sorted((data.get("untested") or {}).items()):
        c.print(Text(f"  not tested: {cause}: {why}", style="dim"))


def _cmd_confirm(a: argparse.Namespace) -> int:
    from ..diagnose import diagnose
    from ..report.json_out import dumps
    from ..report.summary import print_diagnosis
    from ..report.terminal import console
    from ..store.reader import open_run
    from .run import confirm, script_of

    only = {x.strip() for x in (a.only or "").split(",") if x.strip()} or None
    run = open_run(a.run)
    if a.steps is not None and a.steps < 1:
        raise UserError(f"--steps {a.steps}: must be at least 1")
    try:
        script_of(run)
    except UserError:
        from .run import plan

        tests, untested = plan(diagnose(run, experiments=False), {})
        if tests:
            sys.stdout.write("Experiments that would settle this run's hypotheses (none can run: no script):\n")
            for cause, v in tests:
                sys.stdout.write(f"  {cause}: {v.label} ({v.experiment})\n")
        raise
    err = console(sys.stderr)
    done: list[str] = []

    def on_plan(labels: list[str]) -> None:
        err.print(f"traindoc confirm: {len(labels)} re-executions of the script ({', '.join(labels)})")

    def on_done(label: str, s: Any) -> None:
        done.append(label)
        from rich.text import Text

        err.print(Text(f"  [{len(done)}] {label}: {s.describe()}"))

    confirm(run, steps=a.steps, seconds=a.seconds, jobs=a.jobs, only=only, no_sandbox=a.no_sandbox, yes=a.yes,
            allow_changed=a.allow_changed, on_plan=None if a.json else on_plan,
            on_done=None if a.json else on_done)
    d = diagnose(run)
    if a.json:
        print(dumps(d.to_json()))
    else:
        out = console()
        render_experiments(out, d.experiments)
        print_diagnosis(out, d)
    return d.exit_code


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--steps", type=int, help="steps per re-execution (default: enough to see the symptom again, "
                                             "at most 400)")
    p.add_argument("--seconds", type=float, default=120.0, help="time budget per re-execution (default 120)")
    p.add_argument("--jobs", type=int, help="re-executions at once (default: the core count)")
    p.add_argument("--only", metavar="NAMES", help="comma-separated experiment names to run (default: all that apply)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="run even where no operating-system sandbox is available (the script's writes then reach your files)")
    p.add_argument("--yes", action="store_true", help="run a script recorded on another machine or at another path without asking")
    p.add_argument("--allow-changed", action="store_true", help="run although the script changed since the run")


def add_parser(sub: Any) -> None:
    p = sub.add_parser("confirm", help="test the diagnosis: re-execute the script with one thing changed per hypothesis")
    p.add_argument("run", help="a traindoc run folder (recorded with traindoc run)")
    p.add_argument("--json", action="store_true", help="print the re-ranked diagnosis as JSON (with its experiments)")
    add_arguments(p)
    p.set_defaults(func=_cmd_confirm)

"""The command line: parse, call the library, render, exit code (spec/cli-contract.md).

Bad input is one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from typing import Callable

from .errors import UserError

# Subcommands that live in their own packages register themselves here:
# each module has ``add_parser(subparsers)`` that sets ``func`` on its parser.
EXTRA_COMMANDS: list[str] = [
    "traindoc.report.cli",
    "traindoc.lint.cli",
    "traindoc.forensics.cli",
    "traindoc.data.cli",
    "traindoc.confirm.cli",
    "traindoc.confirm.cli_tools",
]


def _cmd_run(a: argparse.Namespace) -> int:
    from .monitor.monitor import Monitor
    from .monitor.runner import run_script
    from .report.terminal import console
    from .report.summary import print_diagnosis

    stop_on = {x.strip() for x in (a.stop_on or "").split(",") if x.strip()}
    if stop_on - {"nonfinite", "spike"}:
        raise UserError(f"--stop-on {a.stop_on}: expected nonfinite, spike or both (nonfinite,spike)")
    from .integrations.writeback import enabled, watch_wandb_finish

    mon = Monitor(out=a.out, sample_every=a.sample_every, strict_out=True, stop_on=stop_on, reads=a.reads,
                  command=["traindoc", "run", *(["-m"] if a.module else []), a.script, *a.args])
    if enabled() and not a.no_writeback:  # a W&B run the script finishes itself: written just before
        mon.on_import["wandb"] = watch_wandb_finish
    started = time.time()
    outcome = run_script(a.script, a.args, mon, module=a.module)
    if outcome.tb:
        sys.stderr.write(outcome.tb)
    if mon.rank != 0:  # under torchrun rank 0 speaks for the job (it reads every rank's store)
        if outcome.status == "interrupted" and isinstance(outcome.exc, KeyboardInterrupt):
            raise outcome.exc
        return outcome.exit_code
    err = console(sys.stderr)
    try:
        from .diagnose import diagnose
        from .store.writer import wait_for_ranks

        wait_for_ranks(mon.out, mon.world_size, timeout=30.0)
        d = diagnose(mon.out)
        print_diagnosis(err, d, short=True)
        if not a.no_writeback:
            from .integrations.writeback import mirror

            for line in mirror(d, mon.out, since=started):
                err.print(line, markup=False, highlight=False, soft_wrap=True)
    except UserError as exc:
        from .report.terminal import esc

        err.print(f"traindoc: could not diagnose the run: {esc(exc)}")
    if outcome.status == "interrupted" and isinstance(outcome.exc, KeyboardInterrupt):
        raise outcome.exc
    return outcome.exit_code


def _cmd_diagnose(a: argparse.Namespace) -> int:
    from .importers import load_any
    from .diagnose import diagnose
    from .report.json_out import dumps
    from .report.summary import print_diagnosis
    from .report.terminal import console

    if a.confirm:
        from .confirm.cli import _cmd_confirm

        return _cmd_confirm(a)
    d = diagnose(load_any(a.run), experiments=not a.no_experiments)
    if a.json:
        print(dumps(d.to_json()))
    else:
        print_diagnosis(console(), d)
    return d.exit_code


def _cmd_explain(a: argparse.Namespace) -> int:
    from .explain import explain, listing

    if a.markdown:
        from .explain import markdown

        sys.stdout.write(markdown())
    elif a.list or not a.name:
        sys.stdout.write(listing())
    else:
        sys.stdout.write(explain(a.name))
    return 0


def _cmd_demo(a: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(out=a.out)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="traindoc", description="Find why a training run went NaN, spiked or would not converge.")
    from . import __version__

    p.add_argument("--version", action="version", version=f"traindoc {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    r = sub.add_parser("run", help="run a training script under monitoring")
    r.add_argument("--out", help="run folder (default: a new folder under ./traindoc-runs/)")
    r.add_argument("--sample-every", type=int, default=None,
                   help="sample the expensive measurements every N steps (default: adaptive, ~1%% of step time)")
    r.add_argument("--stop-on", metavar="KINDS",
                   help="nonfinite, spike or nonfinite,spike: stop the run (exit 1) once that step's bundle is "
                        "written, instead of training on")
    r.add_argument("--reads", choices=("auto", "sync", "lagged"), default="auto",
                   help="when the monitor reads a step's numbers: at the step (sync, one GPU sync per step) or "
                        "at the next (lagged, no sync; a device copy of the weights); auto: lagged on a GPU "
                        "when that copy fits in 5%% of its memory")
    r.add_argument("--no-writeback", action="store_true",
                   help="do not add the diagnosis to the TensorBoard/MLflow/W&B logs the script wrote "
                        "(also TRAINDOC_WRITEBACK=0)")
    r.add_argument("-m", dest="module", action="store_true", help="SCRIPT is a module name, as in python -m")
    r.add_argument("script", help="the training script (or module with -m)")
    r.add_argument("args", nargs=argparse.REMAINDER, help="the script's own arguments")
    r.set_defaults(func=_cmd_run)

    d = sub.add_parser("diagnose", help="rank the causes for a recorded run or another tool's logs")
    d.add_argument("run", help="a traindoc run folder, TensorBoard logs, trainer_state.json, metrics.csv, CSV/JSONL")
    d.add_argument("--json", action="store_true", help="print the JSON document of the contract on stdout")
    d.add_argument("--confirm", action="store_true",
                   help="first run the confirmation experiments (traindoc confirm) and rank with their verdicts")
    d.add_argument("--no-experiments", action="store_true",
                   help="rank without the verdicts of an earlier traindoc confirm (its confirm.json is left in place)")
    from .confirm.cli import add_arguments

    add_arguments(d)
    d.set_defaults(func=_cmd_diagnose)

    e = sub.add_parser("explain", help="what a cause or check name means, how to confirm and fix it")
    e.add_argument("name", nargs="?")
    e.add_argument("--list", action="store_true", help="list every name")
    e.add_argument("--markdown", action="store_true", help="the taxonomy as markdown (docs/taxonomy.md)")
    e.set_defaults(func=_cmd_explain)

    dm = sub.add_parser("demo", help="the built-in end-to-end example on bundled data")
    dm.add_argument("--out", help="run folder for the demo run")
    dm.set_defaults(func=_cmd_demo)

    for modname in EXTRA_COMMANDS:
        mod = importlib.import_module(modname)
        adder: Callable = mod.add_parser
        adder(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"traindoc: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        return 0

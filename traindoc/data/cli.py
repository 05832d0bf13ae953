"""``traindoc data check PATH... [--label COL] [--val PATH...] [--config FILE] [--json]
[--format github] [--html FILE]``: exit 0, 1 on a finding of severity error, 2 on bad input."""

from __future__ import annotations

import argparse
import sys
import time

from ..errors import UserError


def _cmd_check(a: argparse.Namespace) -> int:
    from .api import require

    require()
    from . import config as cfgmod
    from .engine import check
    from .executors import EXECUTORS, tune_allocator
    from .render import github, json_doc, print_summary

    if a.executor not in EXECUTORS:
        raise UserError(f"--executor {a.executor}: one of {', '.join(EXECUTORS)}")
    if a.workers is not None and a.workers < 1:
        raise UserError("--workers must be at least 1")
    cfg = cfgmod.load(a.config)
    if a.html:
        import os

        folder = os.path.dirname(os.path.abspath(a.html))
        if not os.path.isdir(folder):
            raise UserError(f"{folder}: no such folder for the HTML report")
    tune_allocator()  # this process only checks: keep freed memory for reuse
    progress, stop = _progress(a)
    try:
        report = check(a.paths, a.val, config=cfg, label=a.label, exclude=tuple(a.exclude or ()),
                       executor=a.executor, workers=a.workers,
                       cache_dir=False if a.no_cache else a.cache_dir, progress=progress)
    finally:
        stop()
    if a.html:
        from .html import write

        try:
            write(report, a.html)
        except OSError as exc:
            raise UserError(f"{a.html}: cannot write ({exc.strerror or exc})") from None
    if a.json:
        from ..report.json_out import dumps

        print(dumps(json_doc(report)))
    elif a.format == "github":
        sys.stdout.write(github(report.findings))
    else:
        from rich.console import Console

        # CI logs are not terminals but are wide: do not squeeze the table into 80 columns
        out = Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else 160)
        print_summary(out, report, " ".join(a.paths))
    if a.html and not a.json:
        print(f"wrote {a.html}", file=sys.stderr)
    return report.exit_code


def _progress(a: argparse.Namespace):
    """A rich progress bar on stderr, shown only once a scan has taken a second (a CI
    re-check from the cache never flashes one), and never with --json on a pipe."""
    if a.no_progress or not sys.stderr.isatty():
        return None, lambda: None
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    from ..report.terminal import console

    bar = Progress(TextColumn("scanning"), BarColumn(), TextColumn("{task.completed:,.0f} rows"),
                   TimeRemainingColumn(), console=console(sys.stderr), transient=True)
    state = {"task": None, "t0": time.monotonic()}

    def tick(done: int, total: int | None) -> None:
        if state["task"] is None:
            if time.monotonic() - state["t0"] < 1.0:
                return
            bar.start()
            state["task"] = bar.add_task("scan", total=total)
        bar.update(state["task"], completed=done)

    def stop() -> None:
        if state["task"] is not None:
            bar.stop()

    return tick, stop


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("data", help="check training data (Parquet, CSV, JSONL, NumPy) for the data causes")
    sub = p.add_subparsers(dest="data_command", metavar="SUBCOMMAND")
    sub.required = True
    c = sub.add_parser("check", help="scan datasets for NaN/Inf, outliers, long sequences, duplicates, leakage ...",
                       description="Exit 0; 1 when a finding of severity error is found; 2 on bad input.")
    c.add_argument("paths", nargs="+", metavar="PATH",
                   help="files, folders (hive partitions too) or globs: .parquet .csv .tsv .jsonl .json .npy .npz")
    c.add_argument("--label", metavar="COL", help="the target column (class balance, label conflicts)")
    c.add_argument("--val", nargs="+", metavar="PATH", help="the validation split (leakage: its rows in training)")
    c.add_argument("--config", metavar="FILE",
                   help="thresholds (default: [data] in ./traindoc.toml or [tool.traindoc.data] in ./pyproject.toml)")
    c.add_argument("--exclude", nargs="+", metavar="COL", help="columns to ignore (ids, timestamps)")
    c.add_argument("--json", action="store_true", help="print the JSON document of the contract on stdout")
    c.add_argument("--format", choices=("text", "github"), default="text",
                   help="github: one workflow annotation per finding (shown on the pull request)")
    c.add_argument("--html", metavar="FILE", help="also write an HTML report with the histograms")
    c.add_argument("--executor", default="process", help="process (default, all cores), serial, dask, ray")
    c.add_argument("--workers", type=int, help="processes for the process executor (default: all cores)")
    c.add_argument("--cache-dir", metavar="DIR", help="partial profiles cache (default: ~/.cache/traindoc/data)")
    c.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    c.add_argument("--no-progress", action="store_true", help="no progress bar")
    c.set_defaults(func=_cmd_check)

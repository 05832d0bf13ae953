"""``traindoc report RUN -o FILE.html``: the diagnosis and plots as one offline HTML file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import UserError


def _cmd_report(a: argparse.Namespace) -> int:
    from ..diagnose import diagnose
    from ..importers import load_any
    from .html import write

    from ..fileio import check_target

    out = Path(a.output)
    if not out.is_dir():
        check_target(out)  # a FIFO, device or link is never replaced; said before the work
    if out.is_dir():
        raise UserError(f"{out}: is a folder; give the report's file name, e.g. {out / 'report.html'}")
    if not out.parent.is_dir():
        raise UserError(f"{out.parent}: no such folder for the report")
    run = load_any(a.run)
    if a.rank is not None and a.rank not in run.ranks:
        raise UserError(f"--rank {a.rank}: the run has rank(s) {', '.join(map(str, run.ranks))}")
    d = diagnose(run)
    try:
        path = write(d, out, a.rank)
    except OSError as exc:
        raise UserError(f"{out}: cannot write the report ({exc.strerror or exc})") from None
    size = path.stat().st_size / 1e6
    print(f"wrote {path} ({size:.1f} MB): {len(d.causes)} cause(s), {len(d.symptoms)} symptom(s)", file=sys.stderr)
    return 0


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("report", help="write a self-contained HTML report with the ranked causes and plots")
    p.add_argument("run", metavar="RUN", help="a traindoc run folder (or logs that `traindoc diagnose` reads)")
    p.add_argument("-o", "--output", required=True, metavar="FILE.html", help="the HTML file to write")
    p.add_argument("--rank", type=int, default=None, help="the rank whose series are plotted (default: the lowest)")
    p.set_defaults(func=_cmd_report)

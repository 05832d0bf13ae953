"""``traindoc lint PATH... [--json | --format text|json|github|sarif]``.

Exit codes (spec/cli-contract.md): 0, or 1 when a finding of severity error is found
(a file that does not parse is one such finding), 2 on bad input (a missing path, an
unknown rule name).
"""

from __future__ import annotations

import argparse
import sys

FORMATS = ("text", "json", "github", "sarif")


def _cmd_lint(a: argparse.Namespace) -> int:
    from .. import __version__
    from ..errors import UserError
    from ..report.json_out import document, dumps
    from .docs import docs
    from .engine import lint_paths
    from .output import github_line, sarif, text_line
    from .registry import load_all

    if a.list_rules:
        from ..taxonomy import entry
        from .engine import PARSE_ERROR

        print(f"{entry(PARSE_ERROR).code}  {PARSE_ERROR:30s} {'error':8s} {entry(PARSE_ERROR).meaning}")
        for name, r in load_all().items():
            print(f"{r.code}  {name:30s} {r.severity:8s} {r.meaning}")
        return 0
    if not a.paths:
        raise UserError("give at least one file or folder to lint")
    fmt = "json" if a.json else a.format
    if a.jobs is not None and a.jobs < 1:
        raise UserError(f"--jobs {a.jobs}: must be at least 1")
    res = lint_paths(a.paths, select=_split(a.select), ignore=_split(a.ignore), jobs=a.jobs)
    fs = res.findings
    for note in res.skipped:  # a file given by name that is not Python: say so, never silently
        print(f"traindoc lint: skipped {note}", file=sys.stderr)
    if fmt == "json":
        print(dumps(document(findings=fs, files=res.files)))
    elif fmt == "sarif":
        from .engine import select_rules  # the rules that ran, for the SARIF rule table

        print(dumps(sarif(fs, select_rules(_split(a.select), _split(a.ignore)), __version__, docs())))
    else:
        line = github_line if fmt == "github" else text_line
        out = sys.stdout
        for f in fs:
            out.write(line(f) + "\n")
        if fmt == "text" and not a.quiet:
            counts = {s: sum(f.severity == s for f in fs) for s in ("error", "warning", "info")}
            detail = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
            print(f"traindoc lint: {len(fs)} finding(s){' (' + detail + ')' if detail else ''} in {res.files} "
                  f"file(s); `traindoc explain NAME` for details", file=sys.stderr)
    return res.exit_code


def _split(items: list[str] | None) -> list[str] | None:
    if not items:
        return None
    return [x.strip() for it in items for x in it.split(",") if x.strip()]


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "lint", help="static checks of training code for numerical and training-loop pitfalls",
        description="Check Python training code (files, or folders searched for *.py) for known numerical and "
                    "training-loop pitfalls. Exit 1 when a finding of severity error is found, 2 on bad input. "
                    "A file that does not parse is reported as one `unparsable-file` finding (severity error) and "
                    "the others are still checked. A non-Python file given by name (README.md, a notebook) is skipped with a note. Suppress a finding with `# traindoc: ignore[NAME]` on any line of its statement.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders (folders: every *.py below them)")
    p.add_argument("--json", action="store_true", help="the JSON document of the contract on stdout (= --format json)")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text: path:line:col name message; github: workflow annotations; sarif: for code scanning")
    p.add_argument("--select", action="append", metavar="NAMES", help="only these rules (names or TD5xx codes, comma-separated)")
    p.add_argument("--ignore", action="append", metavar="NAMES", help="skip these rules (names or TD5xx codes, comma-separated)")
    p.add_argument("--jobs", "-j", type=int, default=None, help="processes (default: one per CPU for 256+ files)")
    p.add_argument("--list-rules", action="store_true", help="list the rules with their codes and severities")
    p.add_argument("--quiet", "-q", action="store_true", help="no summary line on stderr")
    p.set_defaults(func=_cmd_lint)

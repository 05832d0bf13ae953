"""Renderers for lint findings: terminal lines, GitHub annotations, SARIF 2.1.0 (JSON is
the project's contract document, :mod:`traindoc.report.json_out`).

Renderers only format: they never decide severity or exit codes.
"""

from __future__ import annotations

import json
from typing import Iterable

from ..findings import Finding
from ..taxonomy import entry

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def text_line(f: Finding) -> str:
    """``path:line:col name message`` (what editors and pre-commit parse); in a notebook
    ``nb.ipynb:cell 3:line:col``, as ruff writes it."""
    loc = f.location
    cell = f"cell {loc['cell']}:" if "cell" in loc else ""
    return f"{loc.get('file', '?')}:{cell}{loc.get('line', 1)}:{loc.get('col', 1)} {f.name} {f.message}"


def _gh_escape(s: str, prop: bool = False) -> str:
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return s.replace(":", "%3A").replace(",", "%2C") if prop else s


def github_line(f: Finding) -> str:
    """A GitHub Actions workflow command: an annotation on the file and line of the pull request."""
    loc = f.location
    props = ",".join([
        f"file={_gh_escape(str(loc.get('file', '')), True)}",
        f"line={loc.get('line', 1)}",
        f"col={loc.get('col', 1)}",
        *([f"endLine={loc['end_line']}"] if "end_line" in loc else []),
        f"title={_gh_escape(f'{f.name} ({f.code})', True)}",
    ])
    msg = _cell(loc) + f.message + (". Fix: " + f.fix if f.fix else "")
    return f"::{_GITHUB_LEVEL[f.severity]} {props}::{_gh_escape(msg)}"


def _cell(loc: dict) -> str:
    """In a notebook the line counts within a cell, not in the .ipynb JSON: say which cell."""
    return f"(notebook cell {loc['cell']}, line {loc.get('line', 1)}) " if "cell" in loc else ""


def sarif(findings: Iterable[Finding], rules: dict, version: str, docs: dict[str, str]) -> dict:
    """A SARIF 2.1.0 log for GitHub code scanning (``upload-sarif``)."""
    findings = list(findings)
    names = sorted({*rules, *(f.name for f in findings)}, key=lambda n: entry(n).code)
    index = {n: i for i, n in enumerate(names)}
    driver_rules = []
    for n in names:
        e = entry(n)
        r = rules.get(n)
        sev = r.severity if r is not None else "error"
        driver_rules.append({
            "id": e.code,
            "name": n,
            "shortDescription": {"text": e.meaning},
            "fullDescription": {"text": e.meaning},
            "help": {"text": docs.get(n, e.meaning), "markdown": docs.get(n, e.meaning)},
            "defaultConfiguration": {"level": _SARIF_LEVEL[sev]},
            "properties": {"tags": ["traindoc", "pytorch", e.family]},
        })
    results = []
    for f in findings:
        loc = f.location
        region = {"startLine": loc.get("line", 1), "startColumn": loc.get("col", 1)}
        if "end_line" in loc:
            region["endLine"] = loc["end_line"]
            region["endColumn"] = loc.get("end_col", region["startColumn"])
        results.append({
            "ruleId": f.code,
            "ruleIndex": index[f.name],
            "level": _SARIF_LEVEL[f.severity],
            "message": {"text": f"{f.name}: {_cell(loc)}{f.message}" + (f" Fix: {f.fix}" if f.fix else "")},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(str(loc.get("file", "")))},
                "region": region,
            }}],
        })
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "traindoc-lint", "version": version,
                                "rules": driver_rules}},
            "results": results,
        }],
    }


def _uri(path: str) -> str:
    """Relative paths stay relative (code scanning resolves them against the checkout)."""
    p = path.replace("\\", "/")
    return p[2:] if p.startswith("./") else p


def dumps(doc: dict) -> str:
    return json.dumps(doc, indent=2, allow_nan=False)

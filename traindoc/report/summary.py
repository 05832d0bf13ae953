"""The diagnosis as a terminal note: what happened, the ranked causes, the symptoms."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ..diagnose import Diagnosis
from .terminal import render_findings


def _headline(d: Diagnosis) -> str:
    m = d.run.meta
    status = m.get("status", "?")
    steps = m.get("steps")
    ranks = d.run.ranks
    parts = [f"run {escape(str(d.run.folder))}", f"status {status}"]
    if steps is not None:
        parts.append(f"{steps} steps")
    if len(ranks) > 1:
        parts.append(f"{len(ranks)} ranks")
    return " · ".join(parts)


def print_diagnosis(c: Console, d: Diagnosis, short: bool = False) -> None:
    c.print(f"[bold]traindoc[/] {_headline(d)}")
    if d.causes:
        render_findings(c, "Likely causes, most likely first:", d.causes)
    symptoms = d.symptoms[:5] if short else d.symptoms
    if symptoms:
        render_findings(c, "What the run showed:", symptoms, numbered=False)
        if short and len(d.symptoms) > len(symptoms):
            c.print(f"   [dim]... {len(d.symptoms) - len(symptoms)} more: traindoc diagnose {escape(str(d.run.folder))}[/]")
    if d.internal:
        render_findings(c, "traindoc's own problems (training was not affected):", d.internal, numbered=False)
    if not d.causes and not d.symptoms:
        c.print("No problem found: the loss is finite and no rule fired.")
    if d.cannot_tell and not short:
        c.print("[dim]Cannot tell (not recorded): " + ", ".join(sorted(d.cannot_tell)) + "[/]")

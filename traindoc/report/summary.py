"""The diagnosis as a terminal note: what happened, the ranked causes (the first in full,
the alternatives with how to tell them apart), the symptoms, what could not be told."""

from __future__ import annotations

from rich.console import Console

from ..diagnose import Diagnosis
from ..findings import ERROR
from .terminal import esc, render_findings


def _headline(d: Diagnosis) -> str:
    m = d.run.meta
    status = d.state["status"] or "?"
    steps = m.get("steps")
    ranks = d.run.ranks
    parts = [f"run {esc(str(d.run.folder))}", f"status {esc(status)}"]
    if steps is not None:
        clock = m.get("step_clock") if isinstance(m.get("step_clock"), dict) else {}
        parts.append(f"{steps} steps" + (" (one per backward(): no torch.optim optimizer stepped)"
                                         if clock.get("kind") == "backward" else ""))
    if len(ranks) > 1:
        parts.append(f"{len(ranks)} ranks")
    return " · ".join(parts)


def print_diagnosis(c: Console, d: Diagnosis, short: bool = False) -> None:
    c.print(f"[bold]traindoc[/] {_headline(d)}")
    note = d.state["note"]
    if note:
        c.print(f"[yellow]{esc(note[0].upper() + note[1:])}[/]")
    causes = d.causes[:3] if short else d.causes
    if causes:
        serious = any(f.severity == ERROR for f in causes)
        title = ("Most likely cause first:" if serious else
                 "Possible causes (none with strong evidence), most likely first:")
        render_findings(c, title, causes, detail_first=2)
        if short and len(d.causes) > len(causes):
            c.print(f"   [dim]... {len(d.causes) - len(causes)} more: traindoc diagnose {esc(str(d.run.folder))}[/]")
    symptoms = d.symptoms[:5] if short else d.symptoms
    if symptoms:
        render_findings(c, "What the run showed:", symptoms, numbered=False)
        if short and len(d.symptoms) > len(symptoms):
            c.print(f"   [dim]... {len(d.symptoms) - len(symptoms)} more: traindoc diagnose {esc(str(d.run.folder))}[/]")
    if d.internal:
        render_findings(c, "traindoc's own problems (training was not affected):", d.internal, numbered=False)
    if not d.causes and not d.symptoms:
        c.print("No problem found: the loss is finite and no rule fired." if not note else
                "No problem found in what was recorded: the loss is finite and no rule fired.")
    if d.cannot_tell and not short:
        c.print("[dim]Cannot tell (series not recorded): "
                + "; ".join(f"{esc(k)} ({esc(v.removeprefix('not recorded: '))})"
                            for k, v in sorted(d.cannot_tell.items())) + "[/]")
    if d.causes and not short:
        c.print(f"[dim]traindoc explain {esc(d.causes[0].name)} prints how this cause is detected.[/]")

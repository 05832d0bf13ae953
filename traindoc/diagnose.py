"""Run every rule on a recorded run and rank what they find.

``diagnose(run)`` returns a :class:`Diagnosis`: causes (ranked, most likely first),
symptoms (by step), and the rules that could not tell because the series they need were
not recorded. Rules are pure; this module only orchestrates and orders.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .findings import ERROR, Finding
from .rules import RULES, load_all
from .store.reader import Run, open_run
from .taxonomy import TAXONOMY


@dataclass
class Diagnosis:
    run: Run
    causes: list[Finding] = field(default_factory=list)
    symptoms: list[Finding] = field(default_factory=list)
    internal: list[Finding] = field(default_factory=list)
    cannot_tell: dict[str, str] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return 1 if any(c.severity == ERROR for c in self.causes) else 0

    def to_json(self) -> dict[str, Any]:
        from .report.json_out import document

        return document(
            self.causes, self.symptoms, self.internal,
            run=str(self.run.folder),
            status=self.run.meta.get("status"),
            steps=self.run.meta.get("steps"),
            ranks=self.run.ranks,
            cannot_tell=self.cannot_tell,
        )


def _missing(run: Run, needs: tuple[str, ...]) -> list[str]:
    missing = []
    for n in needs:
        if n.endswith("/"):
            if not any(run.matching(n, r) for r in run.ranks):
                missing.append(n + "*")
        elif not any(run.has(n, r) for r in run.ranks):
            missing.append(n)
    return missing


def diagnose(run: Run | str | Path) -> Diagnosis:
    if not isinstance(run, Run):
        run = open_run(run)
    load_all()
    d = Diagnosis(run)
    for name, r in sorted(RULES.items()):
        missing = _missing(run, r.needs)
        if missing:
            d.cannot_tell[name] = "not recorded: " + ", ".join(missing)
            continue
        try:
            found = r.fn(run)
        except Exception as exc:  # noqa: BLE001 - one broken rule must not hide the others
            d.internal.append(Finding("monitor-error", "warning", f"rule {name} failed: {type(exc).__name__}: {exc}"))
            continue
        for f in found:
            (d.symptoms if f.is_symptom else d.causes if f.is_cause else d.internal).append(f)
    for ev in run.events():
        if ev["kind"] == "monitor-error":
            d.internal.append(Finding("monitor-error", "warning", f"rank {ev['rank']}: {ev['message']}",
                                      location={"step": ev["step"], "rank": ev["rank"]}))
    d.causes.sort(key=Finding.sort_key)
    order = {n: i for i, n in enumerate(TAXONOMY)}
    d.symptoms.sort(key=lambda f: (f.location.get("step") or 0, order[f.name], f.location.get("rank") or 0))
    return d

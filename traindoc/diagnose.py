"""Run every rule on a recorded run and rank what they find.

``diagnose(run)`` returns a :class:`Diagnosis`: causes (ranked, most likely first),
symptoms (by step), and the rules that could not tell because the series they need were
not recorded. Rules are pure; this module only orchestrates and orders.
"""

from __future__ import annotations

import math
import re

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import UserError
from .findings import ERROR, Finding
from .phases import WHOLE, PhaseView, phases
from .rules import RULES, load_all
from .rules.evidence.policy import ruled_out, without_symptom
from .store.reader import Run, open_run
from .taxonomy import TAXONOMY


@dataclass
class Diagnosis:
    run: Run
    causes: list[Finding] = field(default_factory=list)
    symptoms: list[Finding] = field(default_factory=list)
    internal: list[Finding] = field(default_factory=list)
    cannot_tell: dict[str, str] = field(default_factory=dict)
    experiments: dict[str, Any] | None = None  # confirm.json, when `traindoc confirm` ran

    @property
    def state(self) -> dict[str, Any]:
        """How the run ended (:meth:`traindoc.store.reader.Run.state`)."""
        return self.run.state()

    @property
    def exit_code(self) -> int:
        """1 when a cause or a symptom of severity error is found (the contract): a run whose
        loss went non-finite fails a CI gate even when its cause is uncertain."""
        return 1 if any(f.severity == ERROR for f in [*self.causes, *self.symptoms]) else 0

    def to_json(self) -> dict[str, Any]:
        from .findings import document

        return document(
            self.causes, self.symptoms, self.internal,
            run=str(self.run.folder),
            status=self.state["status"],
            note=self.state["note"] or None,
            steps=self.run.meta.get("steps"),
            ranks=self.run.ranks,
            cannot_tell=self.cannot_tell,
            **({"experiments": {k: self.experiments.get(k) for k in ("steps", "results", "untested")}}
               if self.experiments else {}),
        )


# The diagnostic order experience teaches: when two causes explain the evidence equally
# well, the one earlier in this order is the more common culprit and the cheaper check.
FAMILY_ORDER = ("data", "loss", "optimization", "architecture", "numerics", "generalization", "system")


def rank(causes: list[Finding]) -> list[Finding]:
    """Order causes by the strength of their evidence: calibrated confidence first (a
    rule's confidence is the share of the benchmark's runs where a finding of that
    strength named the right cause, see bench/faults/score.py), then the diagnostic
    order, then the earliest step. One finding per name and location is kept."""
    fam = {n: FAMILY_ORDER.index(e.family) if e.family in FAMILY_ORDER else len(FAMILY_ORDER)
           for n, e in TAXONOMY.items()}
    seen, out = set(), []
    for f in sorted(causes, key=lambda f: (-(f.confidence if f.confidence is not None else 0.5),
                                           fam.get(f.name, 99), f.location.get("step") or 0, f.name)):
        key = (f.name, f.location.get("step"), f.location.get("module"), f.location.get("rank"))
        if key in seen:
            continue
        seen.add(key)
        out.append(f)
    return out


# The causes a replay of a non-finite step tests directly (traindoc.forensics): once a
# replay has run, its verdict replaces the guesses the series allowed about that step.
REPLAY_DECIDES = ("data-nonfinite", "data-outlier", "unstable-op", "fp16-overflow")


def settle(causes: list[Finding], replayed: list[Finding]) -> list[Finding]:
    """Series-based guesses about a step that a replay examined: a guess the replay
    confirmed is dropped (the replay's finding is the same cause, located precisely);
    one it did not confirm keeps half its confidence (the experiment spoke against it).
    A cause the replay also names, outside those it decides, is listed once: the replay's
    finding, with the series' evidence added."""
    if not replayed:
        return causes
    steps = {f.location.get("step") for f in replayed}
    names = {f.name for f in replayed}
    out = []
    for f in causes:
        same = next((r for r in replayed if r.name == f.name), None)
        if same is not None and f.name not in REPLAY_DECIDES:  # the same cause seen twice (bad-init's weights and
            same.evidence.extend(e for e in f.evidence if e not in same.evidence)  # its step-0 overflow): one entry
            continue
        if f.name in REPLAY_DECIDES and (f.location.get("step") in steps or not f.location.get("step")):
            if f.name in names:
                continue
            c = (f.confidence or 0.5) * 0.5
            f = Finding.from_confidence(f.name, c, f.message, location=f.location,
                                        evidence=f.evidence + [{"replay": "did not confirm this cause"}], fix=f.fix,
                                        confirm=f.confirm)
        out.append(f)
    return out


def last_domino(run: Run, f: Finding) -> Finding:
    """A replay names the op where a NaN first appeared; when the loss or the gradient
    norm had been growing by orders of magnitude for steps before it, that op is the last
    domino of a blow-up (weights already huge), not its cause: its confidence is halved
    so that the causes of the growth (lr-too-high, loss-reduction, exploding-gradient)
    rank above it."""
    if f.name != "unstable-op":
        return f
    huge = _largest_input(f)
    if huge >= HUGE_INPUT:  # the op overflowed on values that had already blown up upstream
        return Finding.from_confidence(
            f.name, (f.confidence or 0.5) * 0.5, f.message, location=f.location,
            evidence=f.evidence + [{"note": f"its inputs were already {huge:.3g} in magnitude: the values blew up "
                                            "before this op, which only overflowed on them"}],
            fix=f.fix, confirm=f.confirm)
    from .rules.causes.nonfinite import calm_onset
    from .rules.evidence import features

    feats = features(run)
    if feats.first_bad is None or calm_onset(feats) or f.location.get("step") not in (feats.first_bad, None):
        return f
    c = (f.confidence or 0.5) * 0.5
    return Finding.from_confidence(f.name, c, f.message, location=f.location,
                                   evidence=f.evidence + [{"series": "loss", "note": "grew for steps before this op overflowed"}],
                                   fix=f.fix, confirm=f.confirm)


# No activation of a working float32 network is this large; an op that overflows on inputs
# past it (an MSE squaring 1e18) reports a blow-up that happened upstream (sqrt of float32's
# largest value is 1.8e19: any product or square of such inputs overflows)
HUGE_INPUT = 1e12
_RANGE = re.compile(r"in \[([-+0-9.eE]+|-?inf|nan), ([-+0-9.eE]+|-?inf|nan)\]")


def _largest_input(f: Finding) -> float:
    """The largest finite |value| among the replayed op's inputs (0 when not recorded)."""
    top = 0.0
    for e in f.evidence:
        if isinstance(e, dict) and isinstance(e.get("inputs"), str):
            for lo, hi in _RANGE.findall(e["inputs"]):
                for v in (lo, hi):
                    try:
                        x = abs(float(v))
                    except ValueError:
                        continue
                    if math.isfinite(x):
                        top = max(top, x)
    return top


def _missing(run: Run, needs: tuple[str, ...]) -> list[str]:
    missing = []
    kinds = None
    for n in needs:
        if n.startswith("meta:"):  # a check the monitor ran (its absence of events is then a result)
            if not any(n[5:] in (run.meta_for(r).get("checks") or []) for r in run.ranks):
                missing.append(n[5:] + " check")
        elif n.startswith("event:"):  # a kind of event ("event:labels"), or one of several ("a|b")
            if kinds is None:
                kinds = {ev["kind"] for ev in run.events()}
            if not kinds.intersection(n[6:].split("|")):
                missing.append(n[6:].replace("|", " or ") + " events")
        elif n.endswith("/"):
            if not any(run.matching(n, r) for r in run.ranks):
                missing.append(n + "*")
        elif not any(run.has(n, r) for r in run.ranks):
            missing.append(n)
    return missing


# Read on the whole run even when it has phases: a tensor idle in one phase may train in the next
# (a SetFit-style body trained first, then its head; bench/real 415), and the rule reads the
# phases itself (its last phase's optimizer).
_WHOLE_RUN = frozenset({"params-not-updated"})


def _apply_rules(d: Diagnosis, view: Any, todo: list, focus: int | None, tag: str, k: int) -> None:
    """Run the rules on ``view`` (the run, or one phase of it: ``tag`` names it and is put
    before each finding's message; a finding already made on an earlier phase, the same
    words, is not repeated)."""
    seen = {(f.name, f.message.split(": ", 1)[-1] if f.location.get("phase") else f.message)
            for f in d.symptoms + d.causes + d.internal}
    for name, r in todo:
        try:
            found = list(r.fn(view) or [])
        except UserError:
            raise  # the input is bad (a corrupt store): one line, exit 2, not a rule's problem
        except Exception as exc:  # noqa: BLE001 - one broken rule must not hide the others
            d.internal.append(Finding("monitor-error", "warning", f"rule {name} failed: {type(exc).__name__}: {exc}"))
            continue
        for f in found:
            if focus is not None and f.is_cause:
                f.location.setdefault("rank", focus)  # the causes speak of the rank that broke first
            if tag:
                if (f.name, f.message) in seen:
                    continue  # a finding about the code (a lint line) is the same in every phase
                seen.add((f.name, f.message))
                if f.is_symptom or f.is_cause:
                    f.message = f"{tag}: {f.message}"
                    f.location["phase"] = k
            (d.symptoms if f.is_symptom else d.causes if f.is_cause else d.internal).append(f)


def _one_per_cause(causes: list[Finding]) -> list[Finding]:
    """One finding per cause across phases: the most confident speaks, and names the other
    phases where the same cause was read (15 models, one per bank branch, two with a dead
    output ReLU: one dead-relu, not two entries crowding out the other suspects)."""
    best: dict[str, Finding] = {}
    for f in causes:
        if f.location.get("phase") and (f.name not in best or (f.confidence or 0) > (best[f.name].confidence or 0)):
            best[f.name] = f
    out = []
    for f in causes:
        top = best.get(f.name) if f.location.get("phase") else None
        if top is None:
            out.append(f)
        elif f is top:
            also = [g for g in causes if g.name == f.name and g is not f and g.location.get("phase")]
            if also:
                f.message += "; the same in " + ", ".join(
                    f"phase {g.location['phase']} ({(g.confidence or 0):.0%})" for g in also)
            out.append(f)
    return out


def diagnose(run: Run | str | Path, experiments: bool = True) -> Diagnosis:
    """``experiments``: re-rank with the verdicts of ``traindoc confirm`` when the run
    folder holds them (``confirm.json``)."""
    if not isinstance(run, Run):
        run = open_run(run)
    load_all()
    d = Diagnosis(run)
    run_for_rules, focus = _focus(run)
    spans = phases(run) if len(run.ranks) == 1 else [WHOLE]
    todo = []
    for name, r in sorted(RULES.items()):
        missing = _missing(run_for_rules, r.needs)
        if missing:
            d.cannot_tell[name] = "not recorded: " + ", ".join(missing)
        else:
            todo.append((name, r))
    if len(spans) > 1:  # what the whole script's parameters did is read on the whole run
        _apply_rules(d, run_for_rules, [(n, r) for n, r in todo if n in _WHOLE_RUN], focus, "", 0)
        todo = [(n, r) for n, r in todo if n not in _WHOLE_RUN]
    for k, (a, b) in enumerate(spans, 1):
        view, tag = run_for_rules, ""
        if len(spans) > 1:  # several models trained one after another: each phase a run of its own
            view = PhaseView(run_for_rules, a, b)
            steps = view.series("loss").steps
            tag = f"phase {k} of {len(spans)} (steps {a}-{int(steps[-1]) if len(steps) else a})"
        _apply_rules(d, view, todo, focus, tag, k)
    d.causes = _one_per_cause(d.causes)
    if getattr(run, "folder", None) is not None:  # replays of the run's bundles (traindoc replay)
        from .forensics.findings import load_findings

        replayed = load_findings(run.folder)
        d.causes = settle(d.causes, [f for f in replayed if f.is_cause])
        replayed = [last_domino(run, f) for f in replayed]
        for f in replayed:
            (d.causes if f.is_cause else d.symptoms if f.is_symptom else d.internal).append(f)
    if getattr(run, "folder", None) is not None:  # the script's lines (traindoc lint) as evidence
        from .code_evidence import corroborate

        d.causes = corroborate(run, d.causes, d.symptoms, ruled_out(run_for_rules))
    if experiments and getattr(run, "folder", None) is not None:
        from .confirm.apply import apply
        from .confirm.run import load

        d.experiments = load(run.folder)
        d.causes, d.symptoms = apply(d.causes, d.symptoms, d.experiments)
    d.causes = without_symptom(d.causes, d.symptoms)  # after the experiments: slow-learning is theirs
    for ev in run.events():
        if ev["kind"] == "monitor-error":
            d.internal.append(Finding("monitor-error", "warning", f"rank {ev['rank']}: {ev['message']}",
                                      location={"step": ev["step"], "rank": ev["rank"]}))
    d.causes = rank(d.causes)
    order = {n: i for i, n in enumerate(TAXONOMY)}
    d.symptoms.sort(key=lambda f: (f.location.get("step") or 0, order[f.name], f.location.get("rank") or 0))
    return d


class RankView:
    """A multi-rank run seen from one rank: series, indices and meta default to ``rank``
    (explicit ranks pass through), so that rules written for one rank speak of it."""

    def __init__(self, run: Run, rank: int) -> None:
        self._run, self.focus_rank = run, rank

    def __getattr__(self, name: str) -> Any:
        return getattr(self._run, name)

    def series(self, name: str, rank: int | None = None):
        return self._run.series(name, self.focus_rank if rank is None else rank)

    def matching(self, prefix: str, rank: int | None = None):
        return self._run.matching(prefix, self.focus_rank if rank is None else rank)

    def names(self, rank: int | None = None) -> list[str]:
        return self._run.names(self.focus_rank if rank is None else rank)

    def has(self, name: str, rank: int | None = None) -> bool:
        return self._run.has(name, self.focus_rank if rank is None else rank)

    def batch_indices(self, step: int, rank: int | None = None):
        return self._run.batch_indices(step, self.focus_rank if rank is None else rank)

    @property
    def meta(self) -> dict[str, Any]:
        return self._run.meta_for(self.focus_rank)


def _focus(run: Run) -> tuple[Any, int | None]:
    """Under DDP the ranks share the weights but not the batches: the rank whose loss went
    non-finite first is the one whose batch (and samples) the causes are about; else rank 0."""
    import numpy as np

    ranks = run.ranks
    if len(ranks) < 2:
        return run, None
    first: dict[int, int] = {}
    for r in ranks:
        s = run.series("loss", r)
        bad = s.steps[~np.isfinite(s.values)] if not s.empty else []
        if len(bad):
            first[r] = int(bad[0])
    focus = min(first, key=lambda r: (first[r], r)) if first else ranks[0]
    return RankView(run, focus), focus
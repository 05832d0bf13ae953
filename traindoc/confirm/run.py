"""``traindoc confirm RUN``: test the diagnosis's hypotheses by re-executing the script.

The plan: the causes the diagnosis ranked (and the causes that commonly produce the
run's symptoms, which the rules may have missed) that an experiment can test; for each,
one variant (``lr-scale`` x0.1 for ``lr-too-high``); variants shared by several causes
run once. Every variant and one baseline (no change) re-execute the recorded script for
the same step budget with the same seed, in parallel child processes (up to the core
count), each in the replay's sandbox, writing only into its scratch folder. The verdicts
go to ``RUN/confirm.json``; ``traindoc diagnose`` reads it and re-ranks (see
:mod:`traindoc.confirm.apply`).
"""

from __future__ import annotations

import json
import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..errors import UserError
from .reexec import reexecute, sandbox_mode
from .registry import CONFIRMED, INCONCLUSIVE, NOT_RUN, REFUTED, Variant, Verdict, load_all
from .summary import Summary

FILE = "confirm.json"

# Causes that commonly produce each symptom: tested even when no rule named them, because
# a rule that did not fire is not evidence against a cause (the seeds' "list every
# hypothesis that fits the symptom").
# Gradients never cleared add up step after step: they blow up like a rate too high.
SHARED: dict[str, tuple[str, ...]] = {
    "loss-nonfinite": ("lr-too-high", "exploding-gradient", "data-nonfinite", "loss-reduction", "bad-init",
                       "missing-zero-grad"),
    "grad-nonfinite": ("lr-too-high", "exploding-gradient", "data-nonfinite", "loss-reduction", "missing-zero-grad"),
    "loss-spike": ("lr-too-high", "exploding-gradient", "data-outlier", "loss-reduction", "missing-zero-grad"),
    "grad-spike": ("exploding-gradient", "lr-too-high", "missing-zero-grad"),
    "loss-divergence": ("lr-too-high", "loss-reduction", "missing-zero-grad", "exploding-gradient"),
    "loss-oscillation": ("lr-too-high", "missing-zero-grad", "loss-reduction"),
    "loss-plateau": ("lr-too-low", "data-unnormalized", "bad-init", "label-misaligned", "loss-mismatch"),
}
# A run where no rule fired (or only warnings) may still learn badly (the silent failures): is it learning
# as fast as one change would make it? (The seeds' list for a loss that will not fall: the
# rate, too low or too high, the init, the inputs' scale, the labels, the loss.)
QUIET = ("lr-too-low", "lr-too-high", "bad-init", "data-unnormalized", "label-misaligned", "loss-mismatch")
MAX_CAUSES = 9
DEFAULT_STEPS = 400  # the step budget's cap unless --steps says otherwise
DEFAULT_SECONDS = 120.0  # per re-execution


@dataclass
class Result:
    cause: str
    experiment: str
    label: str
    verdict: str
    text: str
    effect: float | None = None
    ratio: float | None = None  # Verdict.ratio: end loss with the change / without, script units

    def to_dict(self) -> dict[str, Any]:
        return {"cause": self.cause, "experiment": self.experiment, "change": self.label, "verdict": self.verdict,
                "text": self.text, "effect": self.effect if self.effect is None or math.isfinite(self.effect)
                else ("inf" if self.effect > 0 else "-inf"), "ratio": self.ratio}


@dataclass
class Confirmation:
    run: Path
    steps: int
    results: list[Result] = field(default_factory=list)
    untested: dict[str, str] = field(default_factory=dict)
    runs: dict[str, Summary] = field(default_factory=dict)  # by variant key; "baseline" too
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": 1, "steps": self.steps, "seconds": round(self.seconds, 1),
            "results": [r.to_dict() for r in self.results],
            "untested": self.untested,
            "runs": {k: {"describe": s.describe(), "status": s.status, "steps": s.steps,
                         "first_nonfinite": s.first_bad, "start": _num(s.start), "end": _num(s.end),
                         "notes": s.notes, "error": s.error, "curve": s.curve()}
                     for k, s in self.runs.items()},
        }


def _num(x: float) -> float | str | None:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return None
    return x if math.isfinite(x) else ("inf" if x > 0 else "-inf")


def script_of(run: Any) -> dict[str, Any]:
    """How to re-run the recorded script (``meta['script']``, written by the monitor);
    one line and exit 2 when the run has none (an imported log, a notebook)."""
    meta = run.meta
    cmd = meta.get("script")
    if not isinstance(cmd, dict) or not isinstance(cmd.get("script"), str) or not cmd["script"]:
        raise UserError(f"{run.folder}: the run does not record a script to re-execute (an imported log, or a "
                        f"run recorded by an older traindoc); experiments need a run recorded with "
                        f"`traindoc run SCRIPT` or `traindoc.watch()`")
    return cmd


def context(run: Any, d: Any) -> dict[str, Any]:
    """What experiments need to know about the original run."""
    ctx: dict[str, Any] = {}
    g = run.series("grad_norm") if run.has("grad_norm") else None
    if g is not None and not g.empty:
        v = g.values
        loss = run.series("loss")
        stop = len(v)
        if not loss.empty:
            bad = np.flatnonzero(~np.isfinite(loss.values))
            if len(bad):
                first = loss.steps[bad[0]]
                stop = int(np.searchsorted(g.steps, first))
        head = v[:stop]
        head = head[np.isfinite(head)]
        if len(head) >= 6:  # a run that blew up at once has no healthy norm to clip at
            # the first half of the calm stretch: before any growth towards the failure
            ctx["healthy_grad_norm"] = float(np.median(head[: max(3, len(head) // 2)]))
    # the first optimizer's first param group: lr/{optimizer}/{group}
    lr_names = sorted(n for n in run.names() if n.startswith("lr/"))
    lr = run.series(lr_names[0]) if lr_names else None
    if lr is not None and not lr.empty:
        v = lr.values[np.isfinite(lr.values) & (lr.values > 0)]
        if len(v):
            ctx["script_lr"] = float(np.median(v))
            ctx["script_lr_max"] = float(np.max(v))
    return ctx


# Symptoms that happen at a step: the re-executions must run past it, or the baseline never
# shows it and every change "does not lower the loss" (gradients never cleared on an MNIST
# MLP: the loss falls for 400 steps, then climbs back up epoch after epoch).
TIMED = ("loss-divergence", "loss-spike", "grad-spike", "loss-oscillation")
MAX_STEPS = 2000  # the cap when the symptom comes late (the seconds budget still applies)


def budget(run: Any, steps: int | None, d: Any = None) -> int:
    total = run.meta.get("steps")
    total = int(total) if isinstance(total, int) and total > 0 else None
    if steps is not None:
        return steps
    loss = run.series("loss")
    k = total or DEFAULT_STEPS
    if not loss.empty:
        bad = np.flatnonzero(~np.isfinite(loss.values))
        if len(bad):
            s = int(loss.steps[bad[0]])
            return max(20, min(s + max(10, s // 2), DEFAULT_STEPS))  # the symptom again, and its absence
    onsets = [int(f.location["step"]) for f in (d.symptoms if d is not None else ())
              if f.name in TIMED and f.severity in ("error", "warning") and isinstance(f.location.get("step"), int)]
    if onsets and min(onsets) + 10 > DEFAULT_STEPS:
        s = min(onsets)
        return min(s + max(10, s // 2), MAX_STEPS, total or MAX_STEPS)
    return max(20, min(k, DEFAULT_STEPS))


def plan(d: Any, ctx: dict[str, Any], only: set[str] | None = None
         ) -> tuple[list[tuple[str, Variant]], dict[str, str]]:
    """(cause, variant) pairs to test, and the causes no experiment can test (with why)."""
    exps = load_all()
    causes: list[str] = []
    for f in d.causes:
        if f.name not in causes:
            causes.append(f.name)
    symptoms = [s.name for s in d.symptoms]
    for s in symptoms:
        for c in SHARED.get(s, ()):
            if c not in causes:
                causes.append(c)
    if not any(f.severity == "error" for f in d.causes) and not any(s in SHARED for s in symptoms):
        # no symptom a list covers and no cause of severity error: the warnings (a dead
        # layer, raw inputs) may be what a slow learner shows, not why it is slow
        causes += [c for c in QUIET if c not in causes]
    causes = causes[:MAX_CAUSES]
    tests: list[tuple[str, Variant]] = []
    untested: dict[str, str] = {}
    for c in causes:
        cands = [e for e in exps.values() if c in e.settles]
        if not cands:
            untested[c] = _why_none(c)
            continue
        whys = []
        for exp in cands:  # every experiment that tests the cause (lr-scale and lr-range-test)
            if only and exp.name not in only:
                continue
            why = exp.applies(c, ctx)
            if why:
                whys.append(f"{exp.name}: {why}")
                continue
            ps = exp.params_for(c, ctx)
            for p in (ps if isinstance(ps, list) else [ps]):  # several variants test one cause (lr x10, x100)
                tests.append((c, Variant(exp.name, tuple(sorted(p.items())))))
        if whys and not any(t[0] == c for t in tests):
            untested[c] = "; ".join(whys)
    if any(v.experiment == "shuffle-labels" for _, v in tests) and not any(
            v.experiment == "overfit-batch" for _, v in tests):
        tests.append(("loss-mismatch", Variant("overfit-batch")))  # the control of shuffle-labels
    return tests, untested


def _merge(results: list[Result]) -> list[Result]:
    """One verdict per cause: confirmed when a variant confirmed it and none refuted it,
    refuted when all refuted it, else inconclusive (variants that disagree say so)."""
    by: dict[str, list[Result]] = {}
    for r in results:
        by.setdefault(r.cause, []).append(r)
    out = []
    for cause, rs in by.items():
        if len(rs) == 1:
            out.append(rs[0])
            continue
        hit = next((r for r in rs if r.verdict == CONFIRMED), None)
        if hit is not None and not any(r.verdict == REFUTED for r in rs):
            # the strongest measured effect of any confirming variant (lr x100 where x10 was
            # not decisive), whichever variant's words are kept
            ratios = [r.ratio for r in rs if r.verdict == CONFIRMED and r.ratio is not None]
            out.append(Result(hit.cause, hit.experiment, hit.label, hit.verdict, hit.text, hit.effect,
                              min(ratios) if ratios else None))
            continue
        verdict = REFUTED if all(r.verdict == REFUTED for r in rs) else INCONCLUSIVE
        out.append(Result(cause, rs[0].experiment, " / ".join(r.label for r in rs), verdict,
                          "; ".join(r.text for r in rs), rs[0].effect))
    return out


def _controls(results: list[Result]) -> None:
    """Verdicts that need another experiment's: a model that learns as well from shuffled
    targets says the labels carry nothing only if it can learn at all (it fits one batch)."""
    fit = next((r for r in results if r.experiment == "overfit-batch"), None)
    for r in results:
        if r.experiment == "shuffle-labels" and r.verdict == CONFIRMED and not (fit and fit.verdict == REFUTED):
            r.verdict = INCONCLUSIVE
            r.text += ("; but the program could not fit even one batch, so it learns from no targets at all: "
                       "shuffling them says nothing" if fit else "; without the one-batch control this says nothing")


def _why_none(cause: str) -> str:
    why = {
        "unstable-op": "the replay of the non-finite step is its experiment: it names the op that made the NaN "
                       "from finite inputs (`traindoc replay`)",
        "dataloader-bottleneck": NOT_RUN["loader-sweep"],
        "overfitting": "compare the validation loss with a held-out split and with stronger regularisation; "
                       "no one-change re-execution of the training loss tells",
        "class-imbalance": "re-weight the loss (pos_weight / weight) and compare per-class recall, which the "
                           "training loss alone does not show",
        "data-leakage": "the overlap is read from how the datasets were built, exactly: there is nothing to "
                        "test by re-running; print the shared indices",
    }
    return why.get(cause, "no experiment changes this one thing yet; the rule's 'confirm' says how to check it "
                          "by hand")


def confirm(run: Any, *, steps: int | None = None, seconds: float = DEFAULT_SECONDS, jobs: int | None = None,
            only: set[str] | None = None, no_sandbox: bool = False, yes: bool = False, allow_changed: bool = False,
            on_done: Callable[[str, Summary], None] | None = None, on_plan: Callable[[list[str]], None] | None = None,
            write: bool = True) -> Confirmation:
    """Run the experiments for ``run`` (a run folder or :class:`~traindoc.store.reader.Run`)."""
    from ..diagnose import diagnose
    from ..forensics.isolate import check
    from ..store.reader import Run, open_run

    if not isinstance(run, Run):
        run = open_run(run)
    unknown = (only or set()) - set(load_all())
    if unknown:
        raise UserError(f"--only {','.join(sorted(unknown))}: no such experiment (see `traindoc explain "
                        f"--list`, section Experiments)")
    cmd = script_of(run)
    check(run.folder, {"command": cmd, "origin": run.meta.get("origin")}, yes=yes, allow_changed=allow_changed)
    d = diagnose(run, experiments=False)
    ctx = context(run, d)
    tests, untested = plan(d, ctx, only)
    k = budget(run, steps, d)
    floors = [load_all()[v.experiment].needs_steps for _, v in tests]
    total = run.meta.get("steps") if isinstance(run.meta.get("steps"), int) else None
    if steps is None and floors:
        k = max(k, min(max(floors), total or max(floors)))
    conf = Confirmation(run.folder, k, untested=untested)
    if not tests:
        return conf
    mode = sandbox_mode(no_sandbox, "the experiments re-run your script, which could then overwrite your files")
    variants = {"baseline": None, **{v.key: v for _, v in tests}}
    if on_plan:
        on_plan(["baseline" if v is None else v.label for v in variants.values()])
    cores = os.cpu_count() or 1
    jobs = max(1, min(jobs or cores, len(variants)))
    threads = max(1, cores // jobs)
    t0 = time.perf_counter()
    world = run.meta.get("rank", {}).get("world_size") if isinstance(run.meta.get("rank"), dict) else None

    def one(item: tuple[str, Variant | None]) -> tuple[str, Summary]:
        key, v = item
        own = int(dict(v.params).get("steps", 0)) + 1 if v is not None else 0  # a sweep has its own length
        s = reexecute(key, v, cmd, ctx, max(k, own), seconds, mode, threads, world)
        if on_done:
            on_done("baseline" if v is None else v.label, s)
        return key, s

    with ThreadPoolExecutor(max_workers=jobs) as ex:
        conf.runs = dict(ex.map(one, variants.items()))
    conf.seconds = time.perf_counter() - t0
    conf.results = _judge(tests, conf.runs)
    conf.results = _merge(conf.results)
    _controls(conf.results)
    if write:
        _write(Path(run.folder) / FILE, conf)
    return conf


def _judge(tests: list[tuple[str, Variant]], runs: dict[str, Summary]) -> list[Result]:
    """Each (cause, variant)'s verdict: its experiment's judge of the variant's run against
    the baseline's."""
    base = runs["baseline"]
    exps = load_all()
    results = []
    for cause, v in tests:
        exp, var = exps[v.experiment], runs[v.key]
        try:
            verdict = exp.judge(cause, base, var, dict(v.params))
        except Exception as exc:  # noqa: BLE001 - one broken judge must not hide the others
            verdict = Verdict(INCONCLUSIVE, f"the judge failed: {type(exc).__name__}: {exc}")
        results.append(Result(cause, v.experiment, v.label, verdict.verdict, verdict.text, verdict.effect,
                              verdict.ratio))
    return results


def _write(path: Path, conf: Confirmation) -> None:
    from ..fileio import atomic_write
    from ..findings import jsonable

    # non-finite numbers (a sweep's NaN loss) as the strings "nan"/"inf", as in every JSON of traindoc
    atomic_write(path, json.dumps(jsonable(conf.to_dict()), indent=1, allow_nan=False).encode())


def load(folder: Path | str | None) -> dict[str, Any] | None:
    """The confirmation stored in a run folder, or None (absent or unreadable)."""
    if folder is None:
        return None
    p = Path(folder) / FILE
    try:
        data = json.loads(p.read_text())
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        return None
    return data

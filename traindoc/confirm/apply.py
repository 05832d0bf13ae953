"""How the experiments' verdicts change the ranking (``traindoc diagnose`` calls this when
the run folder holds ``confirm.json``).

- **confirmed**: the change removed the symptom. The cause rises above every cause no
  experiment confirmed (confidence at least 0.9, and above theirs) and carries the experiment as evidence; a cause no rule
  had named is added. Its severity is ``error`` when the run showed a symptom of
  severity ``error`` or ``warning``, else ``warning`` (a run that trains, only slower
  than it could, is not a failed run).
- **refuted**: the change did nothing for the symptom. The cause keeps 30 % of its
  confidence, drops to ``warning`` or below, and says which experiment spoke against it.
  Except on a run with no loss symptom, when the change that removes a bug (not a knob:
  learning rate, clipping) makes the loss at least twice *higher*: there was no loss
  problem for the cause to explain, and the bug was helping the loss, so the loss cannot
  speak against it (it may hurt what the script measures and traindoc does not: uncleared
  gradients under Adam reached a lower heatmap MSE and a worse keypoint accuracy). Then it
  counts as inconclusive.
- **inconclusive**: recorded as evidence; the ranking is unchanged.
- a **damper** (x0.1 learning rate, clipping) that removed the symptom while a change
  aimed at one specific cause also did: "also helps", confidence at least 0.6, not 0.9.
- a **booster** (x10 learning rate, the LR range test, standardised inputs) that confirmed
  a cause no rule named, on a run where a rule named a cause of severity error that no
  experiment refuted: "also helps" too (a larger step speeds up most slow learners).

A finite baseline that one change made learn at least twice as well is the symptom
``slow-learning``: the run learns far slower than the same program with one thing changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..findings import ERROR, Finding
from .judge import DECISIVE

FIXES = {
    "lr-too-high": "lower the learning rate (x0.1 removed the symptom here), or add warmup",
    "lr-too-low": "raise the learning rate (x10 trained decisively better here)",
    "exploding-gradient": "clip gradients: torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm) before "
                          "optimizer.step() (after scaler.unscale_ under a GradScaler)",
    "missing-zero-grad": "call optimizer.zero_grad() once per step (before backward, or after step)",
    "fp16-overflow": "use bfloat16, or a GradScaler with float16, or keep the overflowing op in float32",
    "fp16-underflow": "use a GradScaler (torch.amp.GradScaler) or bfloat16",
    "bad-init": "use PyTorch's default initialisation (or Kaiming/Xavier scaled to the layer's fan-in)",
    "data-unnormalized": "standardise the inputs with statistics from the training set",
    "data-nonfinite": "drop or impute the samples with NaN/Inf before training (traindoc data check finds them)",
    "data-outlier": "clip, winsorise or drop the extreme samples (traindoc data check finds them)",
    "loss-reduction": "use reduction='mean' (or divide the summed loss by the element count)",
    "label-misaligned": "check that each target belongs to its input (the join, the shift, the shuffling)",
    "params-not-updated": "check requires_grad, that every parameter is in the optimizer, and that the loss "
                          "is not computed from detached tensors",
    "loss-mismatch": "feed raw logits to CrossEntropyLoss/BCEWithLogitsLoss; match the loss to the output",
}


# Changes that damp any instability: a smaller step or clipped gradients remove most
# blow-ups, whatever started them. When a change aimed at one specific cause (cleared
# gradients, a mean loss, clean samples, float32, the default init, standardised inputs)
# also removed the symptom, that cause ranks first and these say "also helps".
# The LR range test is one too for lr-too-high: any bug that destabilises training
# (uncleared gradients, a summed loss, a bad init) lowers the rate where the sweep breaks.
DAMPERS = {("lr-too-high", "lr-scale"), ("lr-too-high", "lr-range-test"), ("exploding-gradient", "clip-grads")}
KNOBS = frozenset({"lr-scale", "lr-range-test", "clip-grads"})  # settings, not the removal of a bug


def _loss_cannot_refute(r: dict[str, Any], troubled: bool) -> bool:
    """A refutation on a run without a loss symptom where removing the bug made the loss
    at least 1/DECISIVE times higher (see the module docstring)."""
    eff = r.get("effect")
    return (not troubled and r.get("experiment") not in KNOBS and isinstance(eff, (int, float))
            and eff >= 1 / DECISIVE)


def apply(causes: list[Finding], symptoms: list[Finding], data: dict[str, Any] | None
          ) -> tuple[list[Finding], list[Finding]]:
    if not data:
        return causes, symptoms
    results = [r for r in data.get("results", []) if isinstance(r, dict) and isinstance(r.get("cause"), str)]
    troubled = any(s.severity in (ERROR, "warning") for s in symptoms)
    out = list(causes)
    specific = any(r.get("verdict") == "confirmed" and (r["cause"], r.get("experiment")) not in DAMPERS
                   and r.get("experiment") not in ("shuffle-labels", "overfit-batch") for r in results)
    boosted = _boosted(causes, results, troubled)
    for r in results:
        cause, verdict = r["cause"], r.get("verdict")
        ev = {"experiment": r.get("experiment"), "change": r.get("change"), "verdict": verdict,
              "text": r.get("text")}
        hits = [i for i, f in enumerate(out) if f.name == cause]
        if verdict == "confirmed" and (specific and (cause, r.get("experiment")) in DAMPERS or id(r) in boosted):
            # it helps, as it would for most instabilities (most slow learners); the specific
            # change (the specific rule's cause) ranks first
            why = ("it speeds up most slow learners, and a rule found a specific cause no experiment refuted"
                   if id(r) in boosted else "it damps most instabilities, a more specific change also worked")
            ev["note"] = "also helps, as this change does for most " + (
                "slow learners" if id(r) in boosted else "instabilities")
            if not hits:
                out.append(Finding(cause, "warning", f"{r.get('text')} (experiment {r.get('experiment')}; {why})",
                                   evidence=[ev], fix=FIXES.get(cause, ""), confidence=0.4))
            for i in hits:
                f = out[i]
                out[i] = Finding(f.name, f.severity, f.message, location=f.location, evidence=f.evidence + [ev],
                                 fix=f.fix, confirm=f.confirm, confidence=max(f.confidence or 0.5, 0.6))
        elif verdict == "confirmed":
            sev = ERROR if troubled else "warning"
            if not hits:
                out.append(Finding(cause, sev, f"confirmed by experiment {r.get('experiment')}: {r.get('text')}",
                                   evidence=[ev], fix=FIXES.get(cause, ""), confidence=0.9))
            for i in hits:
                f = out[i]
                c = min(0.99, max(f.confidence or 0.5, 0.8) + 0.1)
                out[i] = Finding(f.name, sev if sev == ERROR else f.severity, f.message, location=f.location,
                                 evidence=f.evidence + [ev], fix=f.fix, confirm=f.confirm, confidence=c)
        elif verdict == "refuted" and not _loss_cannot_refute(r, troubled):
            for i in hits:
                f = out[i]
                c = (f.confidence if f.confidence is not None else 0.5) * 0.3
                out[i] = replace(f, severity="warning" if c >= 0.25 else "info", evidence=f.evidence + [ev],
                                 message=f"{f.message} (refuted by experiment {r.get('experiment')}: {r.get('text')})",
                                 confidence=c)
        else:  # inconclusive, or a refutation the loss cannot make: evidence only
            if verdict == "refuted":
                ev["note"] = ("the run shows no loss symptom, and removing the cause made the loss higher: the "
                              "loss is not where it hurts, so it cannot refute it")
            for i in hits:
                out[i] = replace(out[i], evidence=out[i].evidence + [ev])
    _outrank(out, [r for r in results if id(r) not in boosted], troubled)
    symptoms = list(symptoms)
    slow = _slow_learning(data, results)
    if slow and not any(s.name == "slow-learning" for s in symptoms):
        symptoms.append(slow)
    return out, symptoms


# Changes that speed up almost any model that learns slowly, whatever the reason: a larger
# step, better-conditioned inputs. (The slow-learning counterpart of DAMPERS.)
BOOSTERS = frozenset({"lr-scale", "lr-range-test", "standardize-inputs"})


def _boosted(causes: list[Finding], results: list[dict[str, Any]], troubled: bool) -> set[int]:
    """ids of confirmations by a booster of a cause no rule named, on a run where a rule
    named a cause of severity error that no experiment refuted: MSE on softmax outputs
    learns faster at x10 the rate, which does not make the rate the root cause."""
    refuted = {r["cause"] for r in results if r.get("verdict") == "refuted" and not _loss_cannot_refute(r, troubled)}
    named = {f.name for f in causes}
    if not any(f.severity == ERROR and f.name not in refuted for f in causes):
        return set()
    return {id(r) for r in results if r.get("verdict") == "confirmed" and r.get("experiment") in BOOSTERS
            and r.get("cause") not in named}


def _outrank(out: list[Finding], results: list[dict[str, Any]], troubled: bool = True) -> None:
    """A cause an experiment confirmed (and none refuted) outranks, in place, every cause
    none did: a rule's 95 % is a guess from the series, a removed symptom a measured effect.
    Among confirmed causes, the larger effect ranks first (the lower end loss relative to
    the baseline, in the script's units; a removed non-finite loss counts as 0): the change
    at the root restores training, one that compensates for it helps less (a raw series in
    the hundreds: standardising it takes the loss from 9e5 to 3e3, a 100x rate to 2e5)."""
    refuted = {r["cause"] for r in results if r.get("verdict") == "refuted" and not _loss_cannot_refute(r, troubled)}
    confirmed = {r["cause"] for r in results if r.get("verdict") == "confirmed"
                 and (r["cause"], r.get("experiment")) not in DAMPERS} - refuted
    ratio: dict[str, float] = {}
    for r in results:
        x = r.get("ratio")
        if r.get("cause") in confirmed and r.get("verdict") == "confirmed" and isinstance(x, (int, float)):
            ratio[r["cause"]] = min(ratio.get(r["cause"], 1.0), float(x))
    top_other = max((f.confidence or 0.0 for f in out if f.name not in confirmed), default=0.0)
    mine = [i for i, f in enumerate(out) if f.name in confirmed]
    if not mine:
        return
    # no measured ratio (the LR range test): ranked as the weakest decisive effect
    mine.sort(key=lambda i: (ratio.get(out[i].name, DECISIVE), -(out[i].confidence or 0.0)))
    top = min(0.995, max(max(out[i].confidence or 0.0 for i in mine), top_other + 0.01 * len(mine),
                        0.9 + 0.01 * (len(mine) - 1)))  # a confirmed cause stays at 0.9 or above
    for rank, i in enumerate(mine):
        f = out[i]
        c = round(top - 0.01 * rank, 4)
        if c != f.confidence:
            out[i] = Finding(f.name, f.severity, f.message, location=f.location, evidence=f.evidence, fix=f.fix,
                             confirm=f.confirm, confidence=c)


def _slow_learning(data: dict[str, Any], results: list[dict[str, Any]]) -> Finding | None:
    runs = data.get("runs") if isinstance(data.get("runs"), dict) else {}
    base = runs.get("baseline") if isinstance(runs.get("baseline"), dict) else None
    if not base or base.get("first_nonfinite") is not None:
        return None
    for r in results:
        if r.get("verdict") == "confirmed" and isinstance(r.get("effect"), (int, float)) and 0 < r["effect"] <= 0.5 \
                and r.get("experiment") != "shuffle-labels" and r.get("experiment") != "overfit-batch":
            return Finding("slow-learning", "warning",
                           f"the run learns far slower than the same program with {r.get('change')}: "
                           f"{r.get('text')}", evidence=[{"experiment": r.get("experiment"),
                                                          "change": r.get("change"), "effect": r["effect"]}])
    return None

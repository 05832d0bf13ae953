"""The script's own lines as evidence for a run's causes (``traindoc diagnose`` calls this).

A recorded run knows which script it ran (``meta['script']``, with its SHA-256). When that
file is unchanged, ``traindoc lint`` reads it (static, nothing executed, ~10 ms a file) and
each lint finding that leads to a cause the run's symptoms point at becomes evidence for
that cause, located to the line:

- a cause the series already named gains the line as evidence and confidence (two
  independent signals: ``1 - (1 - c) * (1 - w)``, ``w`` the lint rule's weight below);
- a cause no rule named is added when the lint rule is a *strong* one (the pattern produces
  the symptom whenever it runs: a softmax before ``CrossEntropyLoss``, a (N, 1) vs (N,)
  MSE, gradients never cleared), at confidence ``w``; a *weak* one (a log or division that
  *may* reach 0) only corroborates.

Only symptoms the pattern produces count (a hand-written softmax explains a NaN, not a
plateau); a run with no such symptom gets nothing from its code here (``traindoc lint``
is the place for pitfalls that have not bitten). A script edited since the run is not
read: its lines are not the lines that ran.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from .findings import Finding

NAN = frozenset({"loss-nonfinite", "grad-nonfinite"})
SPIKE = frozenset({"loss-spike", "grad-spike"})
LEARN = frozenset({"loss-plateau", "slow-learning", "loss-oscillation", "loss-divergence"})
# flushed gradients stall learning; they do not make the loss rise or swing
STALL = frozenset({"loss-plateau", "slow-learning"})

# lint rule -> (cause, the symptoms it produces, weight). Strong (>= 0.6): the pattern
# produces the symptom whenever the line runs; weak: it may (an operand that can be 0).
LEADS_TO: dict[str, tuple[str, frozenset[str], float]] = {
    "log-of-softmax": ("unstable-op", NAN, 0.7),
    "unshifted-softmax": ("unstable-op", NAN, 0.7),
    "unshifted-logsumexp": ("unstable-op", NAN, 0.6),
    "fully-masked-softmax": ("unstable-op", NAN, 0.4),
    "unguarded-zero": ("unstable-op", NAN, 0.3),
    "kl-div-input-not-log": ("loss-mismatch", NAN | LEARN, 0.6),
    "softmax-before-cross-entropy": ("loss-mismatch", LEARN, 0.7),
    "sigmoid-before-bce-with-logits": ("loss-mismatch", LEARN, 0.7),
    "bce-on-logits": ("loss-mismatch", NAN | LEARN, 0.7),
    "loss-shape-broadcast": ("loss-mismatch", LEARN, 0.7),
    "one-hot-target": ("loss-mismatch", LEARN | NAN, 0.6),
    "softmax-over-batch-dim": ("loss-mismatch", LEARN, 0.7),
    "loss-arguments-swapped": ("loss-mismatch", LEARN | NAN, 0.6),
    "clamped-residual-loss": ("loss-mismatch", LEARN, 0.6),
    "gradients-never-cleared": ("missing-zero-grad", NAN | SPIKE | LEARN, 0.7),
    "backward-without-graph": ("params-not-updated", LEARN, 0.7),
    "optimizer-misses-params": ("params-not-updated", LEARN, 0.6),
    "non-leaf-parameter": ("params-not-updated", LEARN, 0.6),
    "grad-cleared-before-step": ("params-not-updated", LEARN, 0.7),
    "requires-grad-never-enabled": ("params-not-updated", LEARN, 0.4),
    "accumulation-not-averaged": ("loss-reduction", NAN | SPIKE | LEARN, 0.6),
    "summed-loss-step": ("loss-reduction", NAN | SPIKE | LEARN, 0.5),
    "unscaled-fp16": ("fp16-underflow", STALL, 0.5),
    "clip-before-unscale": ("exploding-gradient", NAN | SPIKE, 0.4),
    "clip-after-step": ("exploding-gradient", NAN | SPIKE, 0.5),
}
STRONG = 0.6


def script_findings(run: Any) -> tuple[list[Finding], str | None]:
    """Lint findings of the run's script, or ([], why not)."""
    cmd = run.meta.get("script") if isinstance(run.meta, dict) else None
    if not isinstance(cmd, dict) or not isinstance(cmd.get("script"), str) or cmd.get("module"):
        return [], "no script recorded"
    from .forensics.isolate import script_file  # the replay's own resolution of the recorded command

    path = script_file(cmd)
    try:
        raw = path.read_bytes()
    except OSError:
        return [], f"{path} is not there"
    if cmd.get("sha256") and hashlib.sha256(raw).hexdigest() != cmd["sha256"]:
        return [], f"{path} changed since the run"
    from .lint.engine import lint_source

    return [f for f in lint_source(raw, str(path)) if f.name in LEADS_TO], None


def corroborate(run: Any, causes: list[Finding], symptoms: list[Finding],
                ruled_out: frozenset[str] = frozenset()) -> list[Finding]:
    """``causes`` with the script's lines as evidence (see the module's docstring); a cause in
    ``ruled_out`` (the run measured it absent) is not added on the code's word."""
    seen = {s.name for s in symptoms if s.severity in ("error", "warning")}
    if not seen:
        return causes
    lint, _ = script_findings(run)
    by_cause: dict[str, list[Finding]] = {}
    for f in lint:
        cause, produces, _w = LEADS_TO[f.name]
        if produces & seen:
            by_cause.setdefault(cause, []).append(f)
    out = list(causes)
    for cause, hits in by_cause.items():
        w = max(LEADS_TO[h.name][2] for h in hits)
        ev: list[dict] = []
        for h in hits:  # one entry per line and rule (two divisions on one line are one piece of evidence)
            e = {"code": f"{h.location.get('file')}:{h.location.get('line')}", "lint": h.name, "text": h.message}
            if e not in ev and len(ev) < 3:
                ev.append(e)
        idx = [i for i, f in enumerate(out) if f.name == cause]
        for i in idx:
            f = out[i]
            c = 1 - (1 - (f.confidence if f.confidence is not None else 0.5)) * (1 - w)
            loc = {**f.location, **({} if "line" in f.location else {"file": hits[0].location.get("file"),
                                                                     "line": hits[0].location.get("line")})}
            out[i] = Finding.from_confidence(f.name, round(c, 4), f.message, location=loc, evidence=f.evidence + ev,
                                             fix=f.fix, confirm=f.confirm)
        if not idx and w >= STRONG and cause not in ruled_out:
            h = hits[0]
            out.append(Finding.from_confidence(
                cause, w, f"line {h.location.get('line')} of {Path(str(h.location.get('file'))).name}: {h.message} "
                          f"(`traindoc lint` rule {h.name}), and the run shows "
                          f"{', '.join(sorted(LEADS_TO[h.name][1] & seen))}",
                location={"file": h.location.get("file"), "line": h.location.get("line")}, evidence=ev, fix=h.fix,
                confirm=h.confirm or f"traindoc explain {h.name}"))
    return out

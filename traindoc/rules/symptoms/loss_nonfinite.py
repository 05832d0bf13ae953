"""loss-nonfinite (TD101)."""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from .. import rule


@rule("loss-nonfinite", needs=("loss",))
def loss_nonfinite(run) -> list[Finding]:
    """What it detects: the training loss (the value ``backward()`` was called on) became
    NaN or Inf. Reported at the first such step, per rank, with how many steps followed.

    Why it happens: an operation overflowed or was undefined (exp of a large logit, log
    of zero, 0/0, a fully masked softmax row), the input batch held NaN/Inf, the learning
    rate or the gradients blew the weights up, or float16 overflowed under autocast.

    How to confirm: replay the step (``traindoc replay``) to find the first non-finite op
    and the samples that caused it; check whether the gradients or parameters went
    non-finite first (``grad-nonfinite``).

    A loss the script checked and skipped itself (``if torch.isnan(loss): continue``, or
    ``break``) counts too: it was computed by a loss function, never backpropagated, and
    is recorded as ``loss/skipped`` with the skipped batch's dataset indices.

    How to fix: follow the cause that traindoc ranks first; the symptom itself is not
    fixed by lowering the learning rate unless the cause is ``lr-too-high``. A NaN check
    that skips the batch hides the cause and leaves the bad samples in the data.
    """
    out = []
    for rank in run.ranks:
        s = run.series("loss", rank)
        if s.empty:
            continue
        guarded = run.series("loss/skipped", rank)
        if not guarded.empty and np.isfinite(s.values[s.steps <= guarded.steps[0]]).all():
            out.append(_guarded(run, rank, guarded))
            continue
        skipped = run.series("scaler/skipped", rank)
        skipped_steps = set(skipped.steps[skipped.values > 0].tolist()) if not skipped.empty else set()
        bad = ~np.isfinite(s.values)
        if not bad.any():
            continue
        bad_steps = s.steps[bad]
        real = [int(x) for x in bad_steps if int(x) not in skipped_steps]
        first = int(bad_steps[0])
        val = float(s.values[bad][0])
        n_after = int(np.sum(s.steps >= first))
        recovered = bool(np.isfinite(s.values[-1]))
        if not real:
            sev = "warning"
            msg = (f"loss was non-finite at {len(bad_steps)} step(s) from step {first}; the GradScaler "
                   f"skipped those steps")
        else:
            first = real[0]
            sev = "error" if not recovered or len(real) > 1 else "warning"
            msg = (f"loss became {'NaN' if val != val else val} at step {first}"
                   + (f" on rank {rank}" if len(run.ranks) > 1 else "")
                   + ((", the last recorded step" if n_after == 1 else
                       f" and stayed non-finite for the remaining {n_after - 1} step(s)") if not recovered else
                      f"; {len(real)} non-finite step(s) in all"))
        idx = run.batch_indices(first, rank)
        evidence = [{"series": "loss", "step": first, "value": val},
                    {"series": "loss", "steps_nonfinite": len(bad_steps)}]
        if idx is not None:
            evidence.append({"batch": f"{len(idx)} dataset indices recorded for step {first}",
                             "first": idx[:8].tolist()})
        out.append(Finding(
            "loss-nonfinite", sev, msg,
            location={"step": first, "rank": rank},
            evidence=evidence,
            confirm=f"traindoc diagnose {run.folder} (and the replay of step {first} when a bundle exists)",
        ))
    return out


def _guarded(run, rank: int, guarded) -> Finding:
    first = int(guarded.steps[0])
    val = float(guarded.values[0])
    ev = [e for e in run.events(rank) if e["kind"] == "loss-skipped" and e["step"] == first]
    idx = (ev[0]["data"] or {}).get("indices") if ev else None
    evidence = [{"series": "loss/skipped", "step": first, "value": val},
                {"series": "loss/skipped", "steps": len(guarded)}]
    if idx:
        evidence.append({"batch": f"{len(idx)} dataset indices of the skipped batch", "first": idx[:8]})
    return Finding(
        "loss-nonfinite", "error",
        f"loss became {'NaN' if val != val else val} before step {first}"
        + (f" on rank {rank}" if len(run.ranks) > 1 else "")
        + f", and the script's own check skipped that batch (no backward), {len(guarded)} time(s) in all: "
          f"the run looked healthy while its data or model produced NaN",
        location={"step": first, "rank": rank, **({"samples": idx[:64]} if idx else {})},
        evidence=evidence,
        confirm=f"traindoc replay {run.folder} (the bundle holds the skipped batch)",
    )

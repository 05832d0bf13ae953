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
        hidden = _hidden_by_the_log(run, rank, s)
        if hidden is not None:
            out.append(hidden)
            continue
        found = _recorded(run, rank, s)
        if found is not None:
            out.append(found)
    return out


def _recorded(run, rank: int, s) -> Finding | None:
    """The first non-finite recorded loss of ``rank``; a warning when the GradScaler
    skipped every such step or the run recovered after a single one."""
    skipped = run.series("scaler/skipped", rank)
    skipped_steps = set(skipped.steps[skipped.values > 0].tolist()) if not skipped.empty else set()
    bad = ~np.isfinite(s.values)
    if not bad.any():
        return None
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
    return Finding(
        "loss-nonfinite", sev, msg,
        location={"step": first, "rank": rank},
        evidence=evidence,
        confirm=f"traindoc diagnose {run.folder} (and the replay of step {first} when a bundle exists)",
    )


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


def _hidden_by_the_log(run, rank: int, loss) -> Finding | None:
    """A finite logged loss next to a non-finite gradient norm or evaluation loss: the
    logger hid the NaN. The Hugging Face Trainer does so by default
    (``logging_nan_inf_filter=True`` replaces a non-finite step loss by the running mean,
    0.0 once every step is non-finite)."""
    if not np.isfinite(loss.values).all():
        return None
    gn = run.series("grad_norm", rank)
    ev = run.series("loss/eval", rank)
    bad_g = gn.steps[~np.isfinite(gn.values)] if not gn.empty else np.array([], int)
    sk = run.series("scaler/skipped", rank)
    if len(bad_g) and not sk.empty:  # a GradScaler's skipped step has non-finite gradients by design
        bad_g = bad_g[~np.isin(bad_g, sk.steps[sk.values > 0])]
    bad_e = ev.steps[~np.isfinite(ev.values)] if not ev.empty else np.array([], int)
    if not len(bad_g) and not len(bad_e):
        return None
    hf = (run.meta.get("import") or {}).get("format") == "huggingface"
    prev = loss.steps[loss.steps < (bad_g[0] if len(bad_g) else bad_e[0])]
    last_ok = f"finite at step {int(prev[-1])}" if len(prev) else "no finite point before it"
    if len(bad_g):
        first = int(bad_g[0])
        what = f"the gradient norm is {'NaN' if np.isnan(gn.values[gn.steps == first][0]) else 'Inf'} from step {first} on ({len(bad_g)} logged point(s); the loss was {last_ok})"
    else:
        first = int(bad_e[0])
        what = f"the evaluation loss is non-finite at step {first} ({len(bad_e)} point(s))"
    zeros = int(np.sum(loss.values[loss.steps >= first] == 0.0))
    why = ("the Hugging Face Trainer's default logging_nan_inf_filter=True replaced the non-finite step losses"
           + (f" (its logged loss is 0.0 at {zeros} point(s) after that: every step in those windows was NaN)" if zeros else "")
           if hf else "the logged loss stayed finite (averaged or filtered by the logger)")
    return Finding(
        "loss-nonfinite", "error",
        f"the run went non-finite although the logged loss did not: {what}; {why}",
        location={"step": first, "rank": rank},
        evidence=[{"series": "grad_norm" if len(bad_g) else "loss/eval", "step": first, "value": "nan"},
                  {"series": "loss", "steps_logged": len(loss), "zeros_after": zeros}],
        confirm=("rerun with logging_nan_inf_filter=False (or under traindoc run) to see the step losses"
                 if hf else f"traindoc diagnose {run.folder}"),
    )

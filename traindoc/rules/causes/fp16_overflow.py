"""fp16-overflow (TD302)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import act_stat, features, finding, module_order, sampled


def inf_from_finite(run) -> tuple[str, int, float] | None:
    """A module whose output is +-inf on a sampled step while the module before it
    produced finite values far below float32's range: in a float32 model that only
    happens when the op ran in float16 (autocast). Returns (module, step, input absmax)."""
    acts = sampled(run, "act/")
    order = [m for m, _ in module_order(run) if m in acts]
    for prev, mod in zip(order, order[1:]):
        a, p = acts[mod].get("absmax"), acts[prev].get("absmax")
        if a is None or p is None:
            continue
        pv = dict(zip(p.steps.tolist(), p.values.tolist()))
        for st, v in zip(a.steps.tolist(), a.values.tolist()):
            x = pv.get(st)
            if np.isinf(v) and x is not None and np.isfinite(x) and x < 1e30:
                return mod, int(st), float(x)
    return None


@rule("fp16-overflow", needs=("loss",))
def fp16_overflow(run):
    """What it detects: values beyond float16's range (65504) in a run that computes in
    float16: a model whose parameters are float16 when the loss went non-finite, sampled
    activations with a non-zero share beyond 65504, or a GradScaler whose scale keeps
    collapsing.

    Why it happens: ``model.half()`` or ``autocast(dtype=float16)`` on a model whose
    activations, outputs or targets are large (raw-unit regression targets, sum pooling,
    attention scores without scaling), usually without loss scaling.

    How to confirm: rerun the failing step in float32 or bfloat16: it stays finite.
    traindoc's replay with the float16 check names the first op whose output passed 65504.

    How to fix: use bfloat16 (same range as float32), keep the overflowing op in float32
    (autocast(enabled=False) around it), scale the targets, and use torch.amp.GradScaler
    with float16.
    """
    f = features(run)
    half = "float16" in f.dtypes
    over = act_stat(run, "fp16_over", before=None)
    worst = max(over.items(), key=lambda kv: float(np.max(kv[1])), default=(None, np.zeros(1)))
    frac = float(np.max(worst[1])) if worst[0] is not None else 0.0
    ev = []
    c = 0.0
    if half and f.first_bad is not None:
        c = 0.9
        ev.append({"meta": "model dtypes", "value": sorted(f.dtypes)})
        ev.append({"series": "loss", "step": f.first_bad, "value": "non-finite"})
    jump = inf_from_finite(run)
    if jump is not None:
        c = max(c, 0.8)
        worst = (jump[0], np.ones(1))
        frac = max(frac, 1e-9)
        ev.append({"series": f"act/{jump[0]}/absmax", "step": jump[1], "value": "inf",
                   "input_absmax": jump[2],
                   "note": "inf out of finite inputs in a float32 model: the op ran in float16 (autocast)"})
    if frac > 0 and (half or f.scaler) and jump is None:
        c = max(c, 0.8)
        ev.append({"series": f"act/{worst[0]}/fp16_over", "value": frac})
    if f.scaler:
        sc = run.series("scaler/scale")
        sk = run.series("scaler/skipped")
        n_skip = int(np.sum(sk.values > 0)) if not sk.empty else 0
        if n_skip > max(5, 0.2 * max(f.steps, 1)):
            c = max(c, 0.6)
            ev.append({"series": "scaler/skipped", "steps": n_skip, "scale_last": float(sc.values[-1])})
    if c == 0.0:
        return []
    where = {"step": f.first_bad} if f.first_bad is not None else {}
    if worst[0] is not None and frac > 0:
        where["module"] = worst[0]
    return [finding(
        "fp16-overflow", c,
        "values passed float16's maximum (65504) in a float16 run"
        + (f" and the loss went non-finite at step {f.first_bad}" if f.first_bad is not None else ""),
        location=where, evidence=ev,
        fix="train in bfloat16 or float32, or keep the overflowing op in float32; scale raw-unit targets; "
            "use torch.amp.GradScaler with float16",
        confirm="rerun the failing step in float32/bfloat16: it stays finite if float16 range was the cause",
    )]

"""fp16-overflow (TD302)."""

from __future__ import annotations

import json
import numpy as np

from .. import rule
from ..evidence import act_stat, features, finding, module_order, sampled
from ...forensics.fp16_flush import FP16_ZERO_BELOW  # float16 rounds magnitudes below it to 0
from ..evidence.bundles import forensics_files


def inf_from_finite(run) -> tuple[str, int, float] | None:
    """A module whose output is +-inf on a sampled step while the module before it
    produced finite values far below float32's range: in a float32 model that only
    happens when the op ran in float16 (autocast). Returns (module, step, input absmax).
    None when the monitor recorded the forwards' autocast states and none was float16: a
    float32 op overflows too once a diverging run's inputs and weights are huge enough
    (inputs at 5e26 times weights at 1e12 pass 3.4e38)."""
    states = [e.get("data") for e in run.events() if e.get("kind") == "autocast"]
    if states and not any(isinstance(d, dict) and "float16" in d.values() for d in states):
        return None
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
    collapsing; a normalisation layer under float16 autocast whose output is exactly 0 on
    5 % or more of its values while its input reaches 256 (whose square is past 65504: a
    hand-written RMSNorm's mean square overflows, rsqrt(inf) = 0, and the features of every
    loud sample are silently zeroed; more confident the larger that share, up to half of
    them, where it ranks above the raw inputs that made the values large); and, at warning, a replayed non-finite step whose first Inf came from an op
    computed in float16 in the forward pass (past 65504, or an epsilon under float16's
    smallest value flushed to 0 before a division): confirm's float32 experiment settles it.

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
    if eps_flushed(run) is not None and half and frac == 0 and jump is None and c > 0.5:
        c = 0.5  # no value seen past 65504: Adam's eps flushed to 0 explains the NaN (fp16-underflow)
    fwd = fp16_forward_inf(run) if c == 0.0 else None
    if fwd is not None:
        return [_forward_finding(fwd)]
    zeroed = norm_zeroed(run) if c == 0.0 else None
    if zeroed is not None:
        return [_norm_finding(*zeroed)]
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


def eps_flushed(run) -> tuple[str, float] | None:
    """(optimizer class, eps) of an Adam-family optimizer (a group with ``betas`` and
    ``eps``) whose eps is 0 once cast to float16, in a run whose parameters are all float16
    (so is the optimizer's state, and the eps added to it), else None."""
    floats = {d for d in features(run).dtypes if d.startswith(("float", "bfloat"))}
    if floats != {"float16"}:
        return None  # float32 parameters next to float16 ones (a float32 master copy): not shown to be the optimizer's
    for k, o in run.meta.items():
        if not (k.startswith("optimizer/") and isinstance(o, dict)):
            continue
        for g in o.get("groups", []):
            eps = g.get("eps")
            if "betas" in g and isinstance(eps, (int, float)) and 0 <= eps < FP16_ZERO_BELOW:
                return str(o.get("class", "Adam")), float(eps)
    return None


def fp16_forward_inf(run) -> dict | None:
    """The replayed non-finite step's first Inf made by an op computed in float16 in the
    forward pass (a bundle's forensics.json), or None. In float32 the same op may be
    finite (a value past 65504), or an epsilon below float16's smallest value (6e-8) may
    have flushed to 0 before a division: either way float16 is the suspect, and confirm's
    float32 experiment settles it."""
    for p in forensics_files(run):
        try:
            data = json.loads(p.read_text())
            op = (data.get("location") or {}).get("first_inf") or {}
        except (OSError, ValueError, AttributeError):
            continue
        outs = op.get("outputs") or []
        if op.get("phase") == "forward" and any(o.get("dtype") == "float16" and (o.get("posinf") or o.get("neginf"))
                                                for o in outs):
            return {**op, "step": int(data.get("step") or 0), "bundle": p.parent.name}
    return None


def _forward_finding(op: dict):
    where = {"step": op["step"], "op": op.get("op")}
    if op.get("module"):
        where["module"] = op["module"]
    return finding(
        "fp16-overflow", 0.4,
        f"{op.get('op')} computed in float16 made Inf in the forward pass at step {op['step']}"
        + (f" ({op['code']})" if op.get("code") else "")
        + ": a value past float16's 65504, or an epsilon below its smallest value (6e-8) flushed to 0 before a "
          "division; float32 would tell",
        location=where,
        evidence=[{"bundle": op["bundle"], "op": op.get("op"), "phase": "forward", "dtype": "float16",
                   "fp32_finite": op.get("fp32_finite")}],
        fix="keep this op in float32 (autocast(enabled=False) around it, an epsilon float16 can hold such as 1e-4), "
            "or train in bfloat16",
        confirm="traindoc confirm RUN (its fp32 experiment reruns the script in float32: the loss stays finite if "
                "float16 was the cause)",
    )


F16_SQUARE_OVER = 256.0  # 256 ** 2 = 65536 > 65504: a square (a norm's mean square) overflows float16


def norm_zeroed(run) -> tuple[str, str, float, float] | None:
    """(module, class, share of exact zeros, input absmax) of a normalisation layer (class
    name with "Norm") whose output is exactly 0 on at least 5 % of its values (median over
    sampled steps) while the module before it is rarely 0 and reaches 256, in a run under
    float16 autocast. A norm's output is 0 only for a constant row or an infinite scale:
    its input's square passed 65504."""
    from .fp16_underflow import autocast_fp16

    if not autocast_fp16(run):
        return None
    acts = sampled(run, "act/")
    order = [(m, c) for m, c in module_order(run) if m in acts]
    for (prev, _), (mod, cls) in zip(order, order[1:]):
        z, pz, pa = acts[mod].get("zero"), acts[prev].get("zero"), acts[prev].get("absmax")
        if "Norm" not in cls or z is None or pz is None or pa is None or not len(z.values):
            continue
        share, before, top = float(np.median(z.values)), float(np.median(pz.values)), float(np.max(pa.values))
        if share >= 0.05 and before < share / 4 and top >= F16_SQUARE_OVER:
            return mod, cls, share, top
    return None


def _norm_finding(mod: str, cls: str, share: float, top: float):
    # 0.75 at 5 % zeros, 0.85 from half of them: a norm zeroing most of its output under
    # float16 has no other reading, and it ranks above the raw inputs that made the values
    # large (normalising them helps only while nothing else grows past 256; bench/real 436)
    return finding(
        "fp16-overflow", 0.75 + 0.1 * min(1.0, share / 0.5),
        f"under float16 autocast the {cls} layer {mod} outputs exactly 0 for {share:.0%} of its values while its "
        f"input reaches {top:.4g}, whose square ({top * top:.3g}) is past float16's 65504: its mean square "
        "overflows to inf, rsqrt(inf) = 0, and the features of those samples are silently zeroed",
        location={"module": mod},
        evidence=[{"series": f"act/{mod}/zero", "median": round(share, 4)},
                  {"series": "act/(input)/absmax", "max": top, "note": "256 squared passes 65504"}],
        fix="compute the norm's statistics in float32 (x.float().pow(2).mean(-1), then cast back: what "
            "Qwen/LLaMA RMSNorm do), use torch.nn.LayerNorm / nn.RMSNorm (they accumulate in float32 under "
            "autocast), or train in bfloat16",
        confirm="rerun in float32 or bfloat16: the zeros after the norm disappear and the loss falls further",
    )

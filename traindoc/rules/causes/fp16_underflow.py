"""fp16-underflow (TD303)."""

from __future__ import annotations

import math

import numpy as np

from .. import rule
from ..evidence import features, finding, module_sizes, sampled
from ..util import fmt
from .fp16_overflow import eps_flushed, fp16_forward_inf


def autocast_fp16(run) -> bool:
    """The monitor saw an autocast region computing in float16 (its ``autocast`` event)."""
    return any(e["kind"] == "autocast" and "float16" in (e.get("data") or {}).values() for e in run.events()
               if isinstance(e.get("data"), dict))


@rule("fp16-underflow", needs=("loss", "grad_norm/"))
def fp16_underflow(run):
    """What it detects: in a float16 run without a GradScaler, gradients that flush to
    zero: parameters whose gradient is exactly zero on most steps, or a large share of
    gradient values below float16's smallest subnormal (6e-8). Under
    ``torch.autocast(dtype=float16)`` with float32 parameters the flushed values are plain
    zeros in ``.grad``; there the configuration alone (no GradScaler recorded) is a warning
    for ``confirm``'s fp32 experiment to settle. And an Adam-family optimizer over float16
    parameters whose eps (1e-8 by default) is 0 in float16: squared gradients below 6e-8
    flush to 0 in its state and the update divides by 0 (an error once the loss breaks).

    Why it happens: float16 cannot hold magnitudes below 6e-8; small losses (a mean over
    many elements) give activation gradients below that, which become 0 and stop the
    weights behind them from learning. Loss scaling exists for exactly this.

    And updates rounded away: parameters stored in bfloat16 or float16 (no float32 master
    copy) with an Adam-family optimizer whose ~lr steps are below half the format's spacing
    (2^-9 of a weight for bfloat16, 2^-12 for float16) for 30 % of normally distributed
    weights at the weight RMS (an error from 60 % with a loss that fell by less than half;
    not with Kahan summation, stochastic rounding or master weights): they never move.

    How to confirm: the same run with torch.amp.GradScaler (or in float32) learns; the
    grad_underflow/* series of traindoc show the share of gradient values below 6e-8.

    How to fix: use torch.amp.GradScaler with float16, or bfloat16.
    """
    f = features(run)
    if f.scaler:
        return []
    auto = autocast_fp16(run)
    half = "float16" in f.dtypes or auto
    gn = sampled(run, "grad_norm/")
    uf = sampled(run, "grad_underflow/")
    # zero gradients count only on steps whose loss was finite: a NaN/Inf loss (inf / inf
    # in a float16 forward) zeroes or poisons every gradient, which says nothing of flushing
    ok = _finite_loss_steps(run)
    zero = _drop_cancelled_biases({p: float(np.mean(s.values[np.isin(s.steps, ok)] == 0)) for p, s in gn.items()
                                   if np.isin(s.steps, ok).any()})
    frac_zero = float(np.mean([z > 0.5 for z in zero.values()])) if zero else 0.0
    under = {p: float(np.nanmedian(s.values)) for p, s in uf.items() if len(s.values)}
    worst = max(under.items(), key=lambda kv: kv[1], default=(None, 0.0))
    rounded = _updates_rounded_away(run, f)  # (bfloat16 flushes nothing: float32's exponent range)
    if not half or rounded and "float16" not in f.dtypes:
        return rounded
    flushed = eps_flushed(run)
    if flushed is not None:
        return [_eps_finding(f, *flushed)]
    c = 0.0
    ev = [{"meta": "model dtypes", "value": sorted(f.dtypes)}]
    if frac_zero >= 0.2:
        c = 0.55 + 0.4 * frac_zero
        ev.append({"series": "grad_norm/*", "params_mostly_zero": f"{frac_zero:.0%}"})
    if worst[0] is not None and worst[1] > 0.05:
        c = max(c, 0.7)
        ev.append({"series": f"grad_underflow/{worst[0]}", "value": worst[1]})
    if auto and "float16" not in f.dtypes and fp16_forward_inf(run) is None:
        # (an Inf born in a float16 forward op is fp16-overflow's to explain: no gradient
        # flushed before the loss broke)
        # the configuration itself: under autocast the parameters and their .grad are
        # float32, so the values that flushed inside the float16 backward ops are plain
        # zeros there, indistinguishable from a dead ReLU's (so zero gradients are no
        # evidence here): a lead for confirm's fp32 experiment to settle
        weakest = min(((p, float(np.median(s.values))) for p, s in gn.items() if len(s.values)),
                      key=lambda kv: kv[1], default=None)
        if weakest is not None:
            ev.append({"series": f"grad_norm/{weakest[0]}", "median": weakest[1], "note": "the smallest gradient"})
        return [finding(
            "fp16-underflow", 0.45,
            f"the run computes under torch.autocast(dtype=float16) with no GradScaler: gradient values below "
            f"float16's 6e-8 flush to zero in the backward ops, silently (the smallest gradient here: "
            f"{weakest[0] if weakest else '?'}, median norm {fmt(weakest[1]) if weakest else '?'})",
            evidence=[{"event": "autocast", "value": "float16"}] + (ev[-1:] if weakest else []),
            fix="create a torch.amp.GradScaler and use scaler.scale(loss).backward(), scaler.step(opt), "
                "scaler.update(); or autocast with dtype=torch.bfloat16",
            confirm="traindoc confirm RUN runs the fp32 experiment; or rerun with a GradScaler and compare the loss",
        )]
    if c == 0.0:
        return rounded
    return [finding(
        "fp16-underflow", c,
        f"float16 gradients flush to zero without loss scaling ({frac_zero:.0%} of parameters get a zero gradient on most steps)",
        evidence=ev,
        fix="use torch.amp.GradScaler with float16 (or train in bfloat16)",
        confirm="rerun with torch.amp.GradScaler: the zero gradients disappear and the loss falls",
    )]


def _eps_finding(f, opt: str, eps: float):
    """Adam's eps is 0 in float16: where the squared-gradient state underflows to 0 (a
    gradient under 2.4e-4 squares below 6e-8), the update m / (sqrt(v) + eps) is 0/0 = NaN
    or x/0 = inf. An error once the loss went non-finite, a warning before."""
    broke = f.first_bad is not None
    return finding(
        "fp16-underflow", 0.95 if broke else 0.4,
        f"{opt}'s eps ({eps:g}) is 0 in float16 and the parameters (so the optimizer's state) are float16: "
        "squared gradients under 6e-8 flush to 0, and where they do the update m / (sqrt(v) + eps) divides by 0"
        + (f"; the loss went non-finite at step {f.first_bad}" if broke else ""),
        location={"step": f.first_bad} if broke else {},
        evidence=[{"meta": "optimizer", "class": opt, "eps": eps}, {"meta": "model dtypes", "value": sorted(f.dtypes)}]
        + ([{"series": "loss", "step": f.first_bad, "value": "non-finite"}] if broke else []),
        fix="keep float32 master weights (torch.autocast with a GradScaler, not model.half()), or use eps >= 1e-4 "
            "with float16 parameters, or bfloat16",
        confirm="print optimizer.state[p]['exp_avg_sq'].eq(0).float().mean() after the first step: many zeros",
    )


def _drop_cancelled_biases(zero: dict[str, float]) -> dict[str, float]:
    """A bias at exactly-zero gradient beside a weight of the same module that gets one did
    not flush: both read the same upstream gradient, and the weight's being non-zero means it
    did not underflow; the bias's sum over the batch cancels (a pairwise ranking loss
    r(a) - r(b) gives the head's bias exactly 0 in any dtype). Not evidence of underflow."""
    return {p: z for p, z in zero.items()
            if not (p.endswith("bias") and zero.get(p[:-4] + "weight", 1.0) < 0.5 and z > 0.5)}


def _finite_loss_steps(run) -> np.ndarray:
    loss = run.series("loss")
    return loss.steps[np.isfinite(loss.values)] if not loss.empty else np.zeros(0, dtype=np.int64)


# Half the spacing between neighbouring values relative to the value at the top of a binade
# (2^-8 and 2^-11 at its low end): an update below this share of a weight always rounds back.
_HALF_SPACING = {"bfloat16": 2.0 ** -9, "float16": 2.0 ** -12}
_PER_ELEMENT = ("Adam", "AdamW", "NAdam", "RAdam", "Adamax", "RMSprop", "Adagrad", "Lion")


def _updates_rounded_away(run, f) -> list:
    """Adam-family steps (about lr per element) below half a spacing of the weights' own
    low-precision format at their typical size: the optimizer writes back the same weights."""
    fmt_ = next((d for d in ("bfloat16", "float16") if d in f.dtypes), None)
    if fmt_ is None or "float32" in f.dtypes or not f.opt_class.startswith(_PER_ELEMENT) or not np.isfinite(f.lr) \
            or f.lr <= 0 or _compensated(run):
        return []
    sizes = module_sizes(run)
    rms = []
    for p, s in sampled(run, "param_norm/").items():
        mod, _, kind = p.rpartition(".")
        v = s.values[np.isfinite(s.values)]
        if kind == "weight" and sizes.get(mod) and v.size:
            rms.append(float(np.median(v)) / np.sqrt(sizes[mod]))
    if not rms:
        return []
    typical = float(np.median(rms))
    floor = f.lr / _HALF_SPACING[fmt_]  # weights larger than this cannot move by one step
    # the share of weights above it, for normally distributed weights of that RMS
    share = math.erfc(floor / (typical * math.sqrt(2)))
    if share < 0.3:
        return []
    # the loss must show it: a low-precision fine-tune whose loss falls well is not hurt enough
    slow = np.isfinite(f.rel_drop0) and f.rel_drop0 < 0.5
    c = 0.6 if share >= 0.6 and slow else 0.45 if share >= 0.6 or slow else 0.3
    return [finding(
        "fp16-underflow", c,
        f"the parameters are stored in {fmt_} and {f.opt_class} steps them by about its learning rate "
        f"({fmt(f.lr)}) per element: below half the {fmt_} spacing for every weight larger than {fmt(floor)}, "
        f"about {share:.0%} of the weights at their RMS of {fmt(typical)}: those updates round back to the same "
        "weight at every step",
        evidence=[{"meta": "model dtypes", "value": sorted(f.dtypes)},
                  {"meta": "optimizer", "class": f.opt_class, "lr": fmt(f.lr)},
                  {"series": "param_norm/*", "typical_weight_rms": fmt(typical), "smallest_movable": fmt(floor)}],
        fix="keep float32 weights and compute in low precision: torch.autocast(dtype=torch.bfloat16) around the "
            "forward instead of model.to(torch.bfloat16) (or an optimizer with float32 master weights / "
            "stochastic rounding)",
        confirm="rerun with float32 weights under autocast: the loss falls much faster; or count "
                "(p_before == p_after).float().mean() over a step",
    )]


def _compensated(run) -> bool:
    """An optimizer that keeps the rounded-away part (Kahan summation, stochastic rounding,
    float32 master weights: optimi, torchao's low-bit optimizers) says so in its defaults."""
    for key, m in run.meta.items():
        if key.startswith("optimizer/") and isinstance(m, dict):
            d = m.get("defaults") or {}
            if any(d.get(k) for k in ("kahan_sum", "stochastic_round", "bf16_stochastic_round", "master_weights")):
                return True
    return False

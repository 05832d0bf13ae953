"""fp16-underflow (TD303)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import features, finding, sampled


@rule("fp16-underflow", needs=("loss", "grad_norm/"))
def fp16_underflow(run):
    """What it detects: in a float16 run without a GradScaler, gradients that flush to
    zero: parameters whose gradient is exactly zero on most steps, or a large share of
    gradient values below float16's smallest subnormal (6e-8).

    Why it happens: float16 cannot hold magnitudes below 6e-8; small losses (a mean over
    many elements) give activation gradients below that, which become 0 and stop the
    weights behind them from learning. Loss scaling exists for exactly this.

    How to confirm: the same run with torch.amp.GradScaler (or in float32) learns; the
    grad_underflow/* series of traindoc show the share of gradient values below 6e-8.

    How to fix: use torch.amp.GradScaler with float16, or bfloat16.
    """
    f = features(run)
    if f.scaler:
        return []
    half = "float16" in f.dtypes
    gn = sampled(run, "grad_norm/")
    uf = sampled(run, "grad_underflow/")
    zero = {p: float(np.mean(s.values == 0)) for p, s in gn.items() if len(s.values)}
    frac_zero = float(np.mean([z > 0.5 for z in zero.values()])) if zero else 0.0
    under = {p: float(np.nanmedian(s.values)) for p, s in uf.items() if len(s.values)}
    worst = max(under.items(), key=lambda kv: kv[1], default=(None, 0.0))
    if not half:
        return []
    c = 0.0
    ev = [{"meta": "model dtypes", "value": sorted(f.dtypes)}]
    if frac_zero >= 0.2:
        c = 0.55 + 0.4 * frac_zero
        ev.append({"series": "grad_norm/*", "params_mostly_zero": f"{frac_zero:.0%}"})
    if worst[0] is not None and worst[1] > 0.05:
        c = max(c, 0.7)
        ev.append({"series": f"grad_underflow/{worst[0]}", "value": worst[1]})
    if c == 0.0:
        return []
    return [finding(
        "fp16-underflow", c,
        f"float16 gradients flush to zero without loss scaling ({frac_zero:.0%} of parameters get a zero gradient on most steps)",
        evidence=ev,
        fix="use torch.amp.GradScaler with float16 (or train in bfloat16)",
        confirm="rerun with torch.amp.GradScaler: the zero gradients disappear and the loss falls",
    )]

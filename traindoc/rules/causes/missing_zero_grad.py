"""missing-zero-grad (TD603)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import carried_grads, features, finding, focus_rank
from ..util import fmt


@rule("missing-zero-grad", needs=("grad_norm",))
def missing_zero_grad(run):
    """What it detects: a gradient norm that behaves like a running sum: it grows well
    above its first values and changes smoothly from step to step (each step adds one
    batch's gradient to all the previous ones), where cleared gradients are noisy and
    shrink as the loss falls.

    Why it happens: ``optimizer.zero_grad()`` missing, or called once per epoch instead
    of once per step, or placed between backward() and step().

    When the run recorded ``grad_carried`` (the monitor reads what ``.grad`` holds when the
    first backward after a step or a ``zero_grad`` call begins, on sampled steps), that
    measurement decides: a gradient still there on most sampled steps is this cause; an
    empty one on every sampled step rules it out, whatever the norm's shape.

    And: an optimizer that evaluates its closure several times per step (LBFGS) whose
    closure does not clear the gradients: the monitor saw a re-evaluation's backward begin
    with ``.grad`` set and no ``zero_grad`` since the previous evaluation (event
    ``closure-grads-carried``). Clearing once per step outside the closure is not enough.

    How to confirm: print ``p.grad.norm()`` right after zero_grad() and before backward():
    it must be 0; rerun with zero_grad() at the top of every step.

    How to fix: call ``optimizer.zero_grad(set_to_none=True)`` once per step (once per
    accumulation cycle when accumulating on purpose).
    """
    ev = next((e for e in run.events() if e.get("kind") == "closure-grads-carried"), None)
    if ev is not None:
        opt = (ev.get("data") or {}).get("optimizer", "the optimizer")
        return [finding(
            "missing-zero-grad", 0.9,
            f"{opt} evaluates the closure several times per step, and the closure does not clear the gradients: from "
            f"step {ev.get('step')} on, each evaluation's backward() added onto the previous one's, so the directions "
            "and curvature pairs it builds are sums of stale gradients",
            location={"step": ev.get("step")},
            evidence=[{"event": "closure-grads-carried", "optimizer": opt}],
            fix="call optimizer.zero_grad() inside the closure, before loss.backward()",
            confirm="print p.grad.norm() at the top of the closure: it must be 0 (or None) on every evaluation",
        )]
    measured = _measured(run)
    if measured is not None:
        return measured
    f = features(run)
    g = f.grad
    pre = run.series("grad_norm_preclip", focus_rank(run))
    if not pre.empty:
        # the clipped norm is flat at max_norm once clipping binds: read the norm before it
        g = pre.values[np.isfinite(pre.values)]
    if len(g) < 30 or f.first_bad is not None and f.first_bad < 30:
        return []
    head = float(np.median(g[:3]))
    tail = float(np.median(g[len(g) // 2:]))
    growth = tail / max(head, 1e-12)
    rough = float(np.median(np.abs(np.diff(g[len(g) // 2:])) / np.maximum(g[len(g) // 2 + 1:], 1e-12)))
    if growth < 3 or rough > 0.08:
        return []
    c = min(0.9, 0.5 + 0.1 * np.log10(growth) + (0.08 - rough) * 3)
    return [finding(
        "missing-zero-grad", c,
        f"the gradient norm grows like a running sum: {fmt(tail)} in the second half against {fmt(head)} at the start "
        f"({growth:.0f}x), changing only {rough:.1%} from step to step: the gradients are never cleared",
        evidence=[{"series": "grad_norm", "first": fmt(head), "second_half_median": fmt(tail),
                   "median_step_change": f"{rough:.1%}"}],
        fix="call optimizer.zero_grad(set_to_none=True) once per step, before backward()",
        confirm="print p.grad.norm() just before backward(): it must be 0 at every step",
    )]


def _measured(run) -> list | None:
    """The direct measurement, when recorded: [finding], [] (ruled out) or None (not measured)."""
    measured = carried_grads(run)
    if measured is None or not measured[0]:
        return None if measured is None else []
    stale, sampled_steps = measured
    t, x, y = stale[len(stale) // 2]
    return [finding(
        "missing-zero-grad", 0.92,
        f"on {len(stale)} of {sampled_steps} sampled steps .grad still held the previous step's gradient when "
        f"backward() began (step {t}: norm {fmt(x)} before, {fmt(y)} after): nothing clears the gradients "
        "between steps, so each step applies the sum of all the gradients so far",
        location={"step": t},
        evidence=[{"series": "grad_carried", "step": t, "value": fmt(x)},
                  {"series": "grad_carried_ref", "step": t, "value": fmt(y)},
                  {"sampled_steps_with_stale_grad": len(stale), "sampled_steps": sampled_steps}],
        fix="call optimizer.zero_grad(set_to_none=True) once per step, before backward()",
        confirm="print p.grad.norm() just before backward(): it must be 0 (or p.grad None) at every step",
    )]

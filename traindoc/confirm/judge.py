"""The comparisons every experiment's verdict is built from.

Both re-executions run the same script with the same seed for the same number of steps;
only the experiment's change differs, so a difference larger than the thresholds below is
the change's effect. The thresholds are properties of the comparison, not fitted to a
benchmark: a non-finite loss that no longer appears is an all-or-nothing effect; a loss at
the end of the window at most half the baseline's (and lower by at least a tenth of the
loss at the start, so that two losses both near zero do not "halve") is a change a user
would call decisive; within 10 % is no effect.
"""

from __future__ import annotations

import math

from ..numfmt import fmt
from .registry import CONFIRMED, INCONCLUSIVE, REFUTED, Verdict
from .summary import Summary

DECISIVE = 0.5  # var.end / base.end at or below this: the change fixed it
NO_EFFECT = 0.9  # at or above this: the change did nothing for it


def unusable(base: Summary, var: Summary) -> Verdict | None:
    if not base.usable:
        return Verdict(INCONCLUSIVE, f"the re-execution without the change did not train ({base.describe()}"
                                     f"{': ' + base.error if base.error else ''})")
    if not var.usable:
        return Verdict(INCONCLUSIVE, f"the re-execution with the change did not train ({var.describe()}"
                                     f"{': ' + var.error if var.error else ''})")
    return None


def fixes(base: Summary, var: Summary, change: str) -> Verdict:
    """Does the change remove the baseline's symptom? A non-finite loss that no longer
    appears, or a loss at the end at most half the baseline's: confirmed. The same symptom
    at about the same time, or no lower loss: refuted."""
    bad = unusable(base, var)
    if bad:
        return bad
    if base.first_bad is not None:
        b = base.first_bad
        if var.first_bad is None:
            if var.steps <= b:
                return Verdict(INCONCLUSIVE, f"with {change} the run stopped at step {var.steps}, before the "
                                             f"baseline's non-finite step {b}")
            return Verdict(CONFIRMED, f"{change}: the loss stays finite for {var.steps} steps; without it, "
                                      f"non-finite at step {b}", effect=math.inf, ratio=0.0)
        if var.first_bad > 2 * b + 5:
            return Verdict(INCONCLUSIVE, f"{change} delays the non-finite loss (step {b} -> {var.first_bad}) "
                                         f"but does not remove it", effect=var.first_bad / max(b, 1))
        return Verdict(REFUTED, f"with {change} the loss is still non-finite at step {var.first_bad} "
                                f"(baseline: step {b})", effect=var.first_bad / max(b, 1))
    if var.first_bad is not None:
        return Verdict(REFUTED, f"with {change} the loss went non-finite at step {var.first_bad}; the baseline "
                                f"stayed finite (end loss {fmt(base.end)})", effect=0.0)
    return ratio_verdict(base, var, change)


def ratio_verdict(base: Summary, var: Summary, change: str) -> Verdict:
    r = var.end / base.end if base.end > 0 else math.nan
    # the starts differ when the change acts from the first step (a learning rate x0.1
    # never makes the early blow-up): the smaller one is the loss's natural scale
    scale = min(abs(base.start), abs(var.start)) if math.isfinite(var.start) else abs(base.start)
    drop = (base.end - var.end) / scale if scale else math.nan
    nums = f"end loss {fmt(base.end)} -> {fmt(var.end)} (x{fmt(r)})"
    if not math.isfinite(r) or base.end <= 0 or var.end < 0:
        return Verdict(INCONCLUSIVE, f"{change}: {nums}; a loss that reaches zero or below cannot be compared "
                                     f"as a ratio", effect=None)
    if r <= DECISIVE and drop >= 0.1:
        return Verdict(CONFIRMED, f"{change} lowers the loss decisively: {nums}", effect=r, ratio=r)
    if r >= NO_EFFECT:
        return Verdict(REFUTED, f"{change} does not lower the loss: {nums}", effect=r)
    return Verdict(INCONCLUSIVE, f"{change} lowers the loss a little: {nums}", effect=r)

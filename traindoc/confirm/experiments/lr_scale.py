"""lr-scale: the learning rate of every param group x0.1 (lr-too-high) or x10 (lr-too-low)."""

from __future__ import annotations

from typing import Any

import torch

from ...numfmt import fmt
from ..judge import fixes
from ..registry import CONFIRMED, INCONCLUSIVE, REFUTED, Experiment, Verdict, experiment

LEARNS = 0.75  # a baseline whose loss fell by a quarter or more in the window is learning


@experiment
class LrScale(Experiment):
    """What it changes: the learning rate of every param group of every optimizer, x0.1,
    x10 or x100, for the optimizer's step only: the groups' ``lr`` is multiplied just before
    ``optimizer.step`` and put back after it, so warmup, decay and any scheduler go on
    exactly as in the script (the whole schedule is scaled). In a loop with no
    ``torch.optim`` optimizer (a hand-written ``p -= lr * p.grad``) the loss is scaled
    before ``backward()`` instead from the second backward on (the first cannot tell),
    which scales a plain SGD update the same way.

    What it settles: `lr-too-high` (x0.1) and `lr-too-low` (x10 and x100: one run each;
    confirmed when either confirms, refuted when both refute).

    How it is judged: against the re-execution without the change, same seed, same steps.
    x0.1 confirms `lr-too-high` when the loss no longer goes non-finite, or ends at most
    half as high; it refutes it when the symptom comes at about the same step or the loss
    ends no lower. x10 confirms `lr-too-low` when the loss ends at most half as high and
    stays finite; it refutes it when the loss goes non-finite or ends no lower, except
    when neither run moved at all (inconclusive: a rate 1000x too low is still too low at
    x10).
    """

    name = "lr-scale"
    changes = "learning rate x0.1 / x10 / x100 (all groups, schedulers)"
    # x100 as well for lr-too-low: a rate 1000x too low does not move at x10 either
    settles = {"lr-too-high": {"factor": 0.1}, "lr-too-low": [{"factor": 10.0}, {"factor": 100.0}]}

    def label(self, params: dict[str, Any]) -> str:
        return f"lr x{params.get('factor', 1):g}"

    def install(self, hooks, params, ctx) -> None:
        f = float(params["factor"])
        saved: dict[int, list[Any]] = {}

        depth: dict[int, int] = {}

        def pre(opt: torch.optim.Optimizer) -> None:
            # an optimizer subclass whose step() calls super().step(): both classes' steps are
            # hooked, so the hooks nest; scale once, at the outer call, restore after it
            depth[id(opt)] = depth.get(id(opt), 0) + 1
            if depth[id(opt)] > 1:
                return
            saved[id(opt)] = [g.get("lr") for g in opt.param_groups]
            for g in opt.param_groups:
                lr = g.get("lr")
                if isinstance(lr, torch.Tensor):
                    g["lr"] = lr * f
                elif isinstance(lr, (int, float)):
                    g["lr"] = lr * f
            hooks.notes["scaled-steps"] += 1

        def post(opt: torch.optim.Optimizer) -> None:
            depth[id(opt)] = depth.get(id(opt), 1) - 1
            if depth[id(opt)] > 0:
                return
            old = saved.pop(id(opt), None)
            if old is not None:
                for g, lr in zip(opt.param_groups, old):
                    g["lr"] = lr

        def backward(loss: torch.Tensor) -> torch.Tensor:
            if not hooks.hand_written:
                return loss
            hooks.notes["scaled-backwards"] += 1
            return loss * f

        hooks.on_opt_pre.append(pre)
        hooks.on_opt_post.append(post)
        hooks.on_backward.append(backward)

    def judge(self, cause, base, var, params) -> Verdict:
        v = fixes(base, var, self.label(params))
        if cause == "lr-too-low" and v.verdict == REFUTED and base.first_bad is None and var.first_bad is None \
                and var.end <= base.end * 1.1 and base.end >= 0.9 * base.start:
            # neither run moved: a rate 100x or 1000x too low looks the same at x10
            v = Verdict(INCONCLUSIVE, f"{v.text}; the loss barely moved in either run, so the rate may be lower "
                                      f"still by far (an LR range test settles it)", v.effect)
        elif cause == "lr-too-low" and v.verdict == CONFIRMED and base.first_bad is None \
                and base.end < LEARNS * base.start:
            # faster at x10, but the run learns: a rate that leaves speed on the table is
            # not one "so small the loss barely moves"
            v = Verdict(INCONCLUSIVE, f"{v.text}, but without the change the loss already fell from "
                                      f"{fmt(base.start)} to {fmt(base.end)}: the rate is workable, if not the "
                                      f"fastest", v.effect)
        if var.notes.get("scaled-steps", 0) == 0 and var.notes.get("scaled-backwards", 0):
            v.text += " (no torch.optim optimizer: the gradients were scaled, as a plain SGD update's lr would be)"
        return v

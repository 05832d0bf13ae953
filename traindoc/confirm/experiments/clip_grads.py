"""clip-grads: gradient clipping at the healthy norm (exploding-gradient)."""

from __future__ import annotations

import math
import weakref
from typing import Any

import torch

from ..judge import fixes
from ..registry import INCONCLUSIVE, REFUTED, Experiment, Verdict, experiment

DEFAULT_MAX_NORM = 1.0


@experiment
class ClipGrads(Experiment):
    """What it changes: before every optimizer step, the gradients of the optimizer's
    parameters are clipped (``clip_grad_norm_``) to the run's healthy gradient norm: the
    median total norm over the recorded steps before the first non-finite or spiking one
    (under a GradScaler the optimizer sees unscaled gradients, so the norm is comparable);
    at the conventional 1.0 when the run blew up within its first steps (fewer than 6
    finite norms: nothing calm to measure). A loop that updates its weights by hand (no
    torch.optim optimizer) gets the gradients of the models it calls clipped after each
    backward (so does the first backward of any loop: no optimizer has stepped yet; the
    optimizer's own pre-step clip then finds them clipped already).

    What it settles: `exploding-gradient`.

    How it is judged: clipping confirms it when the loss no longer goes non-finite, or
    ends at most half as high, than without clipping; it refutes it when a non-finite
    loss comes at about the same step. No gradient clipped at all: inconclusive. A finite
    loss that ends no lower is inconclusive:
    clipping at a median norm also shortens every ordinary step. Clipping is also the remedy,
    so a confirmation says the fix works, not that nothing else would.
    """

    name = "clip-grads"
    changes = "gradient clipping at the healthy norm"
    settles = {"exploding-gradient": {}}

    def label(self, params) -> str:
        how = " (the conventional value: no calm stretch to measure)" if params.get("conventional") else ""
        return f"gradients clipped at {params.get('max_norm', 0):.3g}{how}"

    def applies(self, cause, ctx) -> str | None:
        return None

    def params_for(self, cause, ctx) -> dict:
        n = ctx.get("healthy_grad_norm")
        if isinstance(n, (int, float)) and math.isfinite(n) and n > 0:
            return {"max_norm": float(n)}
        # a run that blew up within its first steps has no calm stretch to measure: clip at
        # the conventional 1.0 (the usual default of clip_grad_norm_ in training scripts)
        return {"max_norm": DEFAULT_MAX_NORM, "conventional": True}

    def install(self, hooks, params, ctx) -> None:
        m = float(params["max_norm"])

        def pre(opt: torch.optim.Optimizer) -> None:
            ps = [p for g in opt.param_groups for p in g["params"] if p.grad is not None]
            if ps:
                torch.nn.utils.clip_grad_norm_(ps, m)
                hooks.notes["clipped-steps"] += 1

        models: dict[int, Any] = {}  # the models called in training, for updates written by hand

        def seen(module, args, kwargs):
            models.setdefault(id(module), weakref.ref(module))
            return args, kwargs

        def after_backward() -> None:
            if not hooks.hand_written:
                return  # a torch.optim optimizer clips in its pre-step hook
            ps = [p for r in list(models.values()) if r() is not None for p in r().parameters() if p.grad is not None]
            if ps:
                torch.nn.utils.clip_grad_norm_(ps, m)
                hooks.notes["clipped-steps"] += 1

        hooks.on_opt_pre.append(pre)
        hooks.on_input.append(seen)
        hooks.on_backward_post.append(after_backward)

    def judge(self, cause, base, var, params) -> Verdict:
        if not var.notes.get("clipped-steps"):
            return Verdict(INCONCLUSIVE, "no gradient was clipped (no optimizer step or backward of the model's "
                                         "parameters was seen): the experiment did not change the run")
        v = fixes(base, var, self.label(params))
        if v.verdict == REFUTED and base.first_bad is None:
            # clipping at a median norm also shortens every ordinary step: a loss that does
            # not fall with it says the spikes are not what holds the loss up, not that the
            # gradients do not explode
            return Verdict(INCONCLUSIVE, f"{v.text}; clipping also slows ordinary steps, so this does not rule "
                                         f"out exploding gradients", v.effect)
        return v

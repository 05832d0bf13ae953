"""force-zero-grad: gradients cleared after every optimizer step (missing-zero-grad)."""

from __future__ import annotations

import torch

from ..judge import fixes
from ..registry import Experiment, Verdict, experiment


@experiment
class ForceZeroGrad(Experiment):
    """What it changes: right after every optimizer step the gradients of its parameters
    are set to None, as ``optimizer.zero_grad()`` would; gradient accumulation over
    several backward passes between two steps is untouched. In a loop with no
    ``torch.optim`` optimizer, the model's gradients are cleared before every
    ``backward()`` instead.

    What it settles: `missing-zero-grad`.

    How it is judged: clearing confirms it when the loss no longer goes non-finite, or
    ends at most half as high; it refutes it when nothing changes (a loop that already
    clears its gradients gives the same losses: the change is a no-op there).
    """

    name = "force-zero-grad"
    changes = "gradients cleared after each optimizer step (before the next backward)"
    settles = {"missing-zero-grad": {}}

    def label(self, params) -> str:
        return "gradients cleared every step"

    def install(self, hooks, params, ctx) -> None:
        roots: list = []

        def post(opt: torch.optim.Optimizer) -> None:
            for g in opt.param_groups:
                for p in g["params"]:
                    p.grad = None
            hooks.notes["cleared-steps"] += 1

        def note_root(module, args, kwargs):
            if not roots:
                roots.append(module)
            return args, kwargs

        def backward(loss: torch.Tensor) -> torch.Tensor:
            if hooks.hand_written and roots:
                for p in roots[0].parameters():
                    p.grad = None
                hooks.notes["cleared-backwards"] += 1
            return loss

        hooks.on_opt_post.append(post)
        hooks.on_input.append(note_root)
        hooks.on_backward.append(backward)

    def judge(self, cause, base, var, params) -> Verdict:
        return fixes(base, var, self.label(params))

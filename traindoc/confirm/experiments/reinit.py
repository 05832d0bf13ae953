"""reinit: every layer back to PyTorch's default initialisation (bad-init)."""

from __future__ import annotations

import torch

from ..judge import fixes
from ..registry import Experiment, Verdict, experiment


@experiment
class Reinit(Experiment):
    """What it changes: at the model's first training forward, every submodule that has
    ``reset_parameters()`` (Linear, Conv, embeddings, norms, RNNs, attention) is reset to
    PyTorch's default initialisation, undoing the script's own init. It draws from a
    separate random stream, so the data order and dropout masks stay the same.

    What it settles: `bad-init`.

    How it is judged: the default init confirms it when the loss no longer goes
    non-finite, or ends at most half as high; it refutes it when nothing improves. Not
    run on a model that loaded pretrained weights (resetting them tests nothing).
    """

    name = "reinit"
    changes = "default initialisation of every layer"
    settles = {"bad-init": {}}

    def label(self, params) -> str:
        return "default init"

    def install(self, hooks, params, ctx) -> None:
        done: set[int] = set()

        def first_forward(module, args, kwargs):
            if id(module) in done:
                return args, kwargs
            done.add(id(module))
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(1234)
                with torch.no_grad():
                    for m in module.modules():
                        reset = getattr(m, "reset_parameters", None)
                        if callable(reset):
                            try:
                                reset()
                                hooks.notes["reset-modules"] += 1
                            except Exception:  # noqa: BLE001 - a custom module's own reset
                                hooks.notes["reset-failed"] += 1
            return args, kwargs

        hooks.on_input.append(first_forward)

    def judge(self, cause, base, var, params) -> Verdict:
        if not var.notes.get("reset-modules"):
            from ..registry import INCONCLUSIVE

            return Verdict(INCONCLUSIVE, "no layer of the model has reset_parameters() to re-initialise")
        return fixes(base, var, self.label(params))

"""reinit: every layer back to PyTorch's default initialisation (bad-init)."""

from __future__ import annotations

import math

import torch

from ...monitor.context import weight_fan_in
from ..judge import fixes
from ..registry import Experiment, Verdict, experiment


@experiment
class Reinit(Experiment):
    """What it changes: at the model's first training forward, every submodule that has
    ``reset_parameters()`` (Linear, Conv, embeddings, norms, RNNs, attention) is reset to
    PyTorch's default initialisation, undoing the script's own init; weight tensors a
    module of the script holds directly (``nn.Parameter(torch.randn(d, h))``, 2-D and up)
    are re-drawn as nn.Linear's default, U(+-1/sqrt(fan_in)). It draws from a
    separate random stream, so the data order and dropout masks stay the same.

    What it settles: `bad-init`.

    How it is judged: the default init confirms it when the loss no longer goes
    non-finite, or ends at most half as high; it refutes it when nothing improves. When
    every layer's weight matrices already had the default's scale (RMS within 1.5x of it), the
    reset only re-draws them, a new seed: inconclusive, whatever the loss does. Not
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
            shifts = []  # |log(std of the script's weights / std of the default)| per layer
            with torch.random.fork_rng(devices=[]):
                torch.manual_seed(1234)
                with torch.no_grad():
                    for m in module.modules():
                        reset = getattr(m, "reset_parameters", None)
                        if not callable(reset) and _raw_weights(m):
                            reset = _default_like_linear(m)  # nn.Parameter(torch.randn(...)) of a custom module
                        if callable(reset):
                            before = _scales(m)
                            try:
                                reset()
                                hooks.notes["reset-modules"] += 1
                            except Exception:  # noqa: BLE001 - a custom module's own reset
                                hooks.notes["reset-failed"] += 1
                                continue
                            after = _scales(m)
                            for name, b in before.items():
                                a = after.get(name)
                                if a is not None and a > 0:
                                    shifts.append(abs(math.log(max(b, 1e-30) / a)))
            if shifts:
                hooks.values["init-shift"] = max(shifts)
            return args, kwargs

        hooks.on_input.append(first_forward)

    def judge(self, cause, base, var, params) -> Verdict:
        if not var.notes.get("reset-modules"):
            from ..registry import INCONCLUSIVE

            return Verdict(INCONCLUSIVE, "no layer of the model has reset_parameters() to re-initialise")
        shift = var.notes.get("init-shift")
        if isinstance(shift, (int, float)) and shift < SAME_INIT:
            from ..registry import INCONCLUSIVE

            # the script's weights already had the default's scale in every layer: resetting
            # them only re-draws the same distribution (a new seed), which tests no init
            return Verdict(INCONCLUSIVE, f"the script's weights already have PyTorch's default scale (every layer's "
                                         f"std within {math.exp(shift):.2f}x of the default's): re-initialising "
                                         "only re-draws them and tests nothing about the init")
        return fixes(base, var, self.label(params))


# Every weight matrix's RMS within this log-ratio (x1.5) of the default's: the same init.
SAME_INIT = math.log(1.5)


def _scales(m) -> dict[str, float]:
    """RMS of each weight matrix/kernel the module owns (>= 2 dims: Linear and Conv weights,
    an LSTM's weight_ih_l0/weight_hh_l0, attention's in_proj_weight). RMS, not std, so an
    init that shifts the mean (uniform_(0, a)) counts as different."""
    return {n: float(p.detach().float().pow(2).mean().sqrt()) for n, p in m.named_parameters(recurse=False)
            if p.dim() >= 2 and p.is_floating_point() and p.numel() >= 2}


def _raw_weights(m) -> list:
    """The trainable weight tensors (>= 2 dims) a module of the script's own class holds
    directly (``self.w = nn.Parameter(torch.randn(d, h))``): nothing resets them."""
    if type(m).__module__.split(".")[0] == "torch":
        return []
    return [p for p in m.parameters(recurse=False) if p.dim() >= 2 and p.is_floating_point() and p.requires_grad]


def _default_like_linear(m):
    """A reset for ``_raw_weights``: U(-1/sqrt(fan_in), 1/sqrt(fan_in)), nn.Linear's default,
    with the fan-in taken as the smaller of the first two sides (``x @ W`` may use either)."""
    @torch.no_grad()
    def reset() -> None:
        for p in _raw_weights(m):
            b = 1.0 / math.sqrt(max(1, weight_fan_in(p, raw=True)))
            p.uniform_(-b, b)
    return reset

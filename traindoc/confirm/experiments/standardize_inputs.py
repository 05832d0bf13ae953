"""standardize-inputs: float inputs standardised with the first batch's statistics (data-unnormalized)."""

from __future__ import annotations

import torch

from ..hooks import map_tensors
from ..judge import fixes
from ..registry import INCONCLUSIVE, Experiment, Verdict, experiment


def _feature_dims(x: torch.Tensor) -> tuple[int, ...]:
    """The dimensions statistics are taken over: all but the feature axis (columns of a
    table, channels of an image, the last axis of a sequence of vectors)."""
    if x.ndim <= 2:
        return (0,)
    if x.ndim == 3:
        return (0, 1)
    return (0, *range(2, x.ndim))


@experiment
class StandardizeInputs(Experiment):
    """What it changes: every floating-point tensor the model receives (positional and
    keyword arguments, one level into lists and dicts) is standardised per feature
    (columns of a table, channels of an image, the last axis of a sequence) with the mean
    and standard deviation of the first training batch: ``(x - mean) / std``. Integer
    inputs (token ids, indices) are left alone; so are constant features.

    What it settles: `data-unnormalized`.

    How it is judged: standardised inputs confirm the cause when the loss no longer goes
    non-finite, or ends at most half as high; they refute it when the loss ends no lower.
    """

    name = "standardize-inputs"
    changes = "float inputs standardised with early-batch statistics"
    settles = {"data-unnormalized": {}}

    def label(self, params) -> str:
        return "inputs standardised"

    def install(self, hooks, params, ctx) -> None:
        stats: dict[tuple, tuple[torch.Tensor, torch.Tensor]] = {}

        def fn(path: str, x: torch.Tensor) -> torch.Tensor:
            if not x.is_floating_point() or x.numel() < 2 or x.ndim == 0 or x.shape[0] < 2:
                return x
            dims = _feature_dims(x)
            key = (path, tuple(s for d, s in enumerate(x.shape) if d not in dims))
            if key not in stats:
                with torch.no_grad():
                    xf = x.detach().float()
                    finite = torch.isfinite(xf)
                    xz = torch.where(finite, xf, torch.zeros_like(xf))
                    n = finite.sum(dims, keepdim=True).clamp_min(1)
                    mean = xz.sum(dims, keepdim=True) / n
                    var = (torch.where(finite, xf - mean, torch.zeros_like(xf)) ** 2).sum(dims, keepdim=True) / n
                    std = var.sqrt()
                    std = torch.where(std > 1e-8, std, torch.ones_like(std))
                stats[key] = (mean.to(x.dtype), std.to(x.dtype))
                hooks.notes["standardised-inputs"] += 1
            mean, std = stats[key]
            hooks.notes["standardised-batches"] += 1
            return (x - mean) / std

        hooks.on_input.append(lambda m, a, k: map_tensors(a, k, fn))

    def judge(self, cause, base, var, params) -> Verdict:
        if not var.notes.get("standardised-inputs"):
            return Verdict(INCONCLUSIVE, "the model receives no floating-point inputs to standardise")
        return fixes(base, var, self.label(params))

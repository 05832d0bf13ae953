"""standardize-inputs: float inputs (and regression targets far from unit scale)
standardised with the first batch's statistics (data-unnormalized)."""

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
    inputs (token ids, indices) are left alone; so are constant features. A regression
    target far from unit scale (root mean square above 10 or below 0.01: prices in
    dollars, a series in the hundreds) is standardised too, with its first batch's mean
    and standard deviation, where it reaches ``F.mse_loss`` or ``F.l1_loss``: the usual
    fix (scale the series, fit, inverse-scale the predictions) changes both, and a model
    whose inputs are standardised still has to output values in the hundreds.

    What it settles: `data-unnormalized`.

    How it is judged: the losses of the changed run are multiplied back into the
    script's units where targets were standardised (by the target's variance for MSE,
    its standard deviation for L1: exact, since ``mse(p, (y - m) / s) * s**2 ==
    mse(p * s + m, y)``). Standardised data confirm the cause when the loss no longer goes
    non-finite, or ends at most half as high; they refute it when the loss ends no lower.
    A loss that adds other terms to a standardised MSE is compared only approximately.
    """

    name = "standardize-inputs"
    changes = "float inputs (and regression targets far from unit scale) standardised with early-batch statistics"
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
        hooks.on_target.append(_target_standardizer(hooks))

    def judge(self, cause, base, var, params) -> Verdict:
        if not var.notes.get("standardised-inputs") and not var.notes.get("standardised-targets"):
            return Verdict(INCONCLUSIVE, "the model receives no floating-point inputs to standardise")
        k = var.notes.get("target-loss-scale")
        if not k:
            return fixes(base, var, self.label(params))
        return fixes(base, var.scaled(float(k)), "inputs and targets standardised")


# The regression losses whose value scales exactly with the target's scale: MSE with its
# square, L1 with it (Huber and smooth L1 change shape with scale, so they are left alone).
_POWER = {"mse_loss": 2, "l1_loss": 1}
FAR_ABOVE, FAR_BELOW = 10.0, 0.01  # target RMS outside this band: not unit scale


def _target_standardizer(hooks):
    """``on_target``: a float regression target far from unit scale, standardised with its
    first batch's statistics (one per loss function); records the factor that brings the
    loss back into the script's units."""
    stats: dict[str, tuple[float, float] | None] = {}

    def fn(name, input, target, kwargs):
        if name not in _POWER or not isinstance(target, torch.Tensor) or not target.is_floating_point() \
                or target.numel() < 2 or kwargs.get("reduction", "mean") == "none":
            return target
        if name not in stats:
            with torch.no_grad():
                t = target.detach().double()
                t = t[torch.isfinite(t)]
                mean, std = (float(t.mean()), float(t.std())) if t.numel() > 1 else (0.0, 0.0)
            rms = (mean * mean + std * std) ** 0.5
            stats[name] = (mean, std) if std > 0 and not FAR_BELOW <= rms <= FAR_ABOVE else None
            if stats[name] is not None:
                hooks.values["target-loss-scale"] = std ** _POWER[name]
        if stats[name] is None:
            return target
        mean, std = stats[name]
        hooks.notes["standardised-targets"] += 1
        return (target - mean) / std

    return fn

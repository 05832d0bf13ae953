"""replace-samples: rows with non-finite or extreme values replaced by ordinary ones (data-nonfinite, data-outlier)."""

from __future__ import annotations

import torch

from ..hooks import map_tensors
from ..judge import fixes
from ..registry import INCONCLUSIVE, Experiment, Verdict, experiment

OUTLIER = 20.0  # a row whose largest |value| is this many times the batch's typical row's


def _bad_rows(x: torch.Tensor, outliers: bool) -> torch.Tensor:
    """Rows with NaN/Inf (``outliers`` False), or finite rows with an extreme value
    (``outliers`` True): each variant tests one cause, so a NaN row is not an outlier."""
    flat = x.detach().reshape(x.shape[0], -1).float()
    finite = torch.isfinite(flat).all(1)
    if not outliers:
        return ~finite
    bad = torch.zeros_like(finite)
    if flat.shape[0] >= 4:
        mx = torch.where(torch.isfinite(flat), flat.abs(), torch.zeros_like(flat)).amax(1)
        typical = mx.median()
        if typical > 0:
            bad = finite & (mx > OUTLIER * typical)
    return bad


@experiment
class ReplaceSamples(Experiment):
    """What it changes: in every training batch, the rows (samples) whose float inputs or
    targets hold NaN/Inf (for `data-nonfinite`), or, in a separate re-execution, the
    finite rows whose largest absolute value is more than 20 times that of the batch's
    median row (for `data-outlier`), are replaced by the first
    ordinary row of the same batch, inputs and targets together, before the model sees
    them. The batch keeps its size and order.

    What it settles: `data-nonfinite` and `data-outlier`.

    How it is judged: replacing them confirms the cause when the loss no longer goes
    non-finite, or ends at most half as high; it refutes it when the symptom comes at
    about the same step (or when no row was ever flagged: then the data are not what
    breaks the run).
    """

    name = "replace-samples"
    changes = "flagged samples replaced by ordinary ones"
    settles = {"data-nonfinite": {"outliers": False}, "data-outlier": {"outliers": True}}

    def label(self, params) -> str:
        return "outlier samples replaced" if params.get("outliers") else "non-finite samples replaced"

    def install(self, hooks, params, ctx) -> None:
        outliers = bool(params.get("outliers"))
        state: dict = {"map": None, "n": None}

        def on_input(module, args, kwargs):
            from ..hooks import tensors_in

            ts = [x for _, x in tensors_in(args, kwargs) if x.ndim >= 1 and x.shape[0] >= 2]
            if not ts:
                state["map"] = None
                return args, kwargs
            n = ts[0].shape[0]
            bad = torch.zeros(n, dtype=torch.bool, device=ts[0].device)
            for x in ts:
                if x.shape[0] == n and x.is_floating_point():
                    bad |= _bad_rows(x, outliers)
            state["n"] = n
            if not bad.any() or bad.all():
                state["map"] = None
                return args, kwargs
            good = int(torch.nonzero(~bad)[0])
            idx = torch.arange(n, device=bad.device)
            idx[bad] = good
            state["map"] = idx
            hooks.notes["replaced-rows"] += int(bad.sum())
            return map_tensors(args, kwargs, lambda p, x: x[idx.to(x.device)] if x.ndim >= 1 and x.shape[0] == n else x)

        def on_target(name, input, target, kwargs):
            idx = state["map"]
            if not isinstance(target, torch.Tensor) or target.ndim == 0:
                return target
            if idx is not None and target.shape[0] == state["n"]:
                return target[idx.to(target.device)]
            if target.is_floating_point() and target.shape[0] >= 2:  # bad targets, inputs fine
                bad = _bad_rows(target, outliers)
                if bad.any() and not bad.all():
                    good = int(torch.nonzero(~bad)[0])
                    t = target.clone()
                    t[bad] = target[good]
                    hooks.notes["replaced-rows"] += int(bad.sum())
                    return t
            return target

        hooks.on_input.append(on_input)
        hooks.on_target.append(on_target)

    def judge(self, cause, base, var, params) -> Verdict:
        v = fixes(base, var, self.label(params))
        if not var.notes.get("replaced-rows"):
            from ..registry import REFUTED

            if v.verdict != INCONCLUSIVE or base.usable:
                return Verdict(REFUTED, "no sample of the re-executed steps had "
                                        + ("extreme values" if params.get("outliers")
                                           else "non-finite values") + " in the model's inputs or the targets")
        return v

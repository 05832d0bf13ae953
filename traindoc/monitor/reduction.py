"""How the loss backpropagated at the first step was reduced, read off its autograd graph:
a sum over how many terms, or a mean. A summed loss makes the gradient, and every step of an
optimizer whose step grows with it (SGD), ``terms`` times that of the mean: the loss-reduction
rule's structural evidence where the loss value alone cannot show it (a per-pixel loss summed
over 16 x 32 x 32 frames starts at 1 768, a plausible value for many losses).

Read once per run, on the first backward: a walk from the root at most :data:`NODES` nodes
deep and, where the sum is scaled by a constant, one host read of that constant."""

from __future__ import annotations

import math
from typing import Any

import torch

NODES = 8
# The loss functions' own reduction argument (``at::Reduction``: 0 none, 1 mean, 2 sum).
_SUM, _MEAN = 2, 1


def graph_reduction(loss: torch.Tensor, scaled: bool = False) -> dict[str, Any] | None:
    """``{"reduction": "sum" | "mean", "terms": n, "op": ..., "factor": c}`` for the loss's
    outermost reduction, where ``factor`` is the product of the constants it is multiplied
    or divided by on the way to the root (``0.5 * err.sum()``, ``sum / batch``), and
    ``terms`` the number of elements reduced; for an addition, its mean term if it has one
    (the data term beside a summed penalty), else its largest sum. None when the root is none
    of these (a hand-written update, a loss built from ``.item()`` values), or when a node
    cannot be read. ``scaled``: the root is a GradScaler's ``loss * scale`` (its factor is the
    scaler's, not the loss's)."""
    try:
        return _walk(loss.grad_fn, 1.0, NODES, skip_mul=scaled)
    except Exception:  # noqa: BLE001  (a node this torch names or saves differently: say nothing)
        return None


def _walk(node: Any, factor: float, budget: int, skip_mul: bool = False) -> dict[str, Any] | None:
    if node is None or budget <= 0:
        return None
    name = node.name()
    if name in ("SumBackward0", "SumBackward1"):  # (SumBackward1: over dims, all of them at a scalar loss)
        return {"reduction": "sum", "terms": math.prod(node._saved_self_sym_sizes), "op": "sum", "factor": factor}
    if name == "NegBackward0":  # -logp.sum()
        return _walk(node.next_functions[0][0], -factor, budget - 1)
    if name.startswith("MeanBackward"):
        return {"reduction": "mean", "terms": int(node._saved_self_sym_numel), "op": "mean", "factor": factor}
    if hasattr(node, "_saved_reduction"):  # MseLoss, NllLoss, BinaryCrossEntropyWithLogits, ...
        r = int(node._saved_reduction)
        if r not in (_SUM, _MEAN):
            return None
        if name.startswith("Nll"):  # one term per target (the log-probabilities are [N, C])
            terms = node._saved_target.numel()
        else:
            terms = node._saved_self.numel()
        return {"reduction": "sum" if r == _SUM else "mean", "terms": int(terms),
                "op": name.split("Backward")[0], "factor": factor}
    nxt = [n for n, _ in node.next_functions]
    if name in ("MulBackward0", "DivBackward0") and len(nxt) == 2 and nxt[1] is None:
        if skip_mul and name == "MulBackward0":  # the GradScaler's loss * scale
            return _walk(nxt[0], factor, budget - 1)
        c = node._saved_other
        c = float(c) if isinstance(c, torch.Tensor) and c.numel() == 1 else None
        if c is None or c == 0 or not math.isfinite(c):
            return None
        return _walk(nxt[0], factor * c if name == "MulBackward0" else factor / c, budget - 1)
    if name in ("AddBackward0", "SubBackward0"):
        # a mean next to a sum is the data term with a penalty summed over weights (CE + 1e-3 *
        # W.pow(2).sum()): the mean sizes the step; sums alone (a VAE's reconstruction + KL): the largest
        parts = [p for p in (_walk(n, factor, budget - 2) for n in nxt if n is not None) if p is not None]
        means = [p for p in parts if p["reduction"] == "mean"]
        if means or not parts:
            return means[0] if means else None
        return max(parts, key=lambda p: p["terms"] * abs(p["factor"]))
    return None

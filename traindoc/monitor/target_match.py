"""Is the loss's target one of the model's inputs (the leak check of :mod:`.losses`): the
same memory, or a column of the input table that is a rescaled copy of a class target."""

from __future__ import annotations

import torch


def affine_copy(x: torch.Tensor, t: torch.Tensor, level: float = 0.9999) -> torch.Tensor:
    """Per column of the table ``x`` [B, F]: a rescaled copy of a class target ``t`` [B]
    (|correlation| >= 0.9999: the label written into the table, then standardised with the
    features). Only for class targets (integers, or floats that are whole numbers): for a
    continuous target a smooth series' previous value, an honest feature, can correlate
    that well. ``level`` 0.9: a column computed from the label plus a little noise (the
    churn flag plus jitter: about 0.95). A few device ops, no sync; only during the leak
    check's first steps."""
    tf = t.reshape(-1).to(x.dtype)
    discrete = (tf == tf.round()).all() if t.is_floating_point() else torch.ones((), dtype=torch.bool, device=x.device)
    xc = x - x.mean(0)
    tc = tf - tf.mean()
    r = (xc * tc.reshape(-1, 1)).sum(0) / (xc.norm(dim=0) * tc.norm()).clamp_min(1e-12)
    return (r.abs() >= level) & discrete


def same_memory(a: torch.Tensor, b: torch.Tensor) -> bool:
    """The same elements in the same memory (a view such as ``targets.view(-1)``)."""
    try:
        return (a.device == b.device and a.dtype == b.dtype and a.numel() == b.numel() and a.numel() > 0
                and a.data_ptr() == b.data_ptr())
    except (RuntimeError, NotImplementedError):  # tensors without storage (fake, meta)
        return False


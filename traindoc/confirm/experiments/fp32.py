"""fp32: autocast and half-precision casts turned off (fp16-overflow, fp16-underflow)."""

from __future__ import annotations

import functools

import torch

from ..judge import fixes
from ..registry import Experiment, Verdict, experiment

_HALF = (torch.float16, torch.bfloat16)


@experiment
class Fp32(Experiment):
    """What it changes: every ``torch.autocast`` region (``torch.amp.autocast``,
    ``torch.cuda.amp.autocast``, Lightning's and Accelerate's mixed precision, which use
    it) runs with ``enabled=False``, and ``Module.half()``/``bfloat16()``,
    ``Tensor.half()``/``bfloat16()`` and ``.to(float16)`` keep float32. A GradScaler keeps
    scaling the loss, which is harmless in float32.

    What it settles: `fp16-overflow` and `fp16-underflow`.

    How it is judged: float32 confirms the cause when the loss no longer goes non-finite,
    or ends at most half as high; it refutes it when the same symptom appears in float32,
    which then is not a precision problem.
    """

    name = "fp32"
    changes = "autocast / half precision off"
    settles = {"fp16-overflow": {}, "fp16-underflow": {}}

    def label(self, params) -> str:
        return "float32 (autocast and half off)"

    def install(self, hooks, params, ctx) -> None:
        orig_init = torch.autocast.__init__

        @functools.wraps(orig_init)
        def init(self_a, device_type, dtype=None, enabled=True, cache_enabled=None):
            if enabled:
                hooks.notes["autocast-off"] += 1
            orig_init(self_a, device_type, dtype=dtype, enabled=False, cache_enabled=cache_enabled)

        hooks._set(torch.autocast, "__init__", init)

        def keep(self_x, *a, **k):
            hooks.notes["half-casts-kept"] += 1
            return self_x

        for cls in (torch.nn.Module, torch.Tensor):
            hooks._set(cls, "half", keep)
            hooks._set(cls, "bfloat16", keep)
        for cls in (torch.nn.Module, torch.Tensor):
            orig_to = cls.to

            def to(self_x, *a, _orig=orig_to, **k):
                if k.get("dtype") in _HALF:
                    k["dtype"] = torch.float32
                    hooks.notes["half-casts-kept"] += 1
                if any(x in _HALF for x in a if isinstance(x, torch.dtype)):
                    hooks.notes["half-casts-kept"] += 1
                    a = tuple(torch.float32 if isinstance(x, torch.dtype) and x in _HALF else x for x in a)
                return _orig(self_x, *a, **k)

            hooks._set(cls, "to", to)

    def judge(self, cause, base, var, params) -> Verdict:
        if not var.notes.get("autocast-off") and not var.notes.get("half-casts-kept"):
            from ..registry import INCONCLUSIVE

            return Verdict(INCONCLUSIVE, "the script uses no autocast or half-precision cast that this "
                                         "experiment could turn off")
        return fixes(base, var, self.label(params))

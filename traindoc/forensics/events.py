"""One op of a replay as the detectors report it (:class:`OpEvent`), JSON-safe.

Measurement only: which cause an event stands for is decided in :mod:`.findings`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import torch

from .stats import TensorStats


@dataclass
class OpEvent:
    """One op of the replay and what it did."""

    op: str  # "aten::exp"
    short: str  # "exp"
    phase: str  # "forward" | "backward"
    index: int  # position of the op in its phase's trace
    module: str | None  # "encoder.layers.3.attn"; "" = the root module's forward; None = outside
    module_type: str | None  # class of that module, e.g. "SelfAttention"
    node: str | None  # backward: the autograd node, e.g. "ExpBackward0"
    inputs: list[TensorStats]  # every tensor argument, before the op ran
    scalars: list[Any]  # non-tensor arguments (ints, floats, dims)
    outputs: list[TensorStats]
    rows: list[int] = field(default_factory=list)  # dim-0 rows of the output that went bad
    samples: list[int] | None = None  # batch positions, when the layout names them
    source: str | None = None  # nonfinite_input: "input", "parameter <name>" or "parameter <name> (buffer)"
    fp32_finite: bool | None = None  # half precision op: finite when recomputed in float32?
    code: str | None = None  # forward: "train.py:42 in forward: w = torch.exp(scores) * mask"

    def where(self) -> str:
        if self.module is None:
            return "outside any module"
        return self.module or f"<{self.module_type} (top level)>"

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op, "short": self.short, "phase": self.phase, "index": self.index,
            "module": self.module, "module_type": self.module_type, "node": self.node,
            "inputs": [s.to_dict() for s in self.inputs], "scalars": [_scalar_json(v) for v in self.scalars],
            "outputs": [s.to_dict() for s in self.outputs], "rows": self.rows,
            "samples": self.samples, "source": self.source, "fp32_finite": self.fp32_finite,
            "code": self.code,
        }


def _scalar_json(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_scalar_json(x) for x in v]
    return str(v)


def user_line() -> str | None:
    """The innermost stack frame outside torch and traindoc: the line of the user's code."""
    import linecache
    import sys

    f = sys._getframe(1)
    torch_dir = torch.__file__.rsplit("/", 1)[0]
    own = __file__.rsplit("/", 2)[0]
    while f is not None:
        fn = f.f_code.co_filename
        mine = fn.startswith(own) and not fn.startswith(own + "/demo/")  # the demo is user code
        if not (fn.startswith(torch_dir) or mine or fn.startswith("<")):
            line = linecache.getline(fn, f.f_lineno).strip()
            return f"{fn.rsplit('/', 1)[-1]}:{f.f_lineno} in {f.f_code.co_name}: {line}"
        f = f.f_back
    return None

"""Which cause the op detectors' hits of a replayed step name (the measuring code,
:mod:`.watch`, names none): ``cause_of(detections)`` -> (kind, culprit op)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .events import OpEvent
    from .watch import Detections


def cause_of(d: Detections) -> tuple[str | None, OpEvent | None]:
    """The cause the op trace of a replayed step names, and its culprit op: an input holding
    NaN read before any unstable op -> ``nonfinite-input`` (``nonfinite-state`` for a
    parameter or buffer); else the first op that made Inf from finite inputs
    (``fp16-overflow`` when it is finite recomputed in float32, else ``unstable-op``); else
    the first op that made NaN (unless a parameter holding +-inf was read first: state, or an
    input of the batch holding +inf: data); else
    an input holding only +-inf. (None, None): all finite."""
    if d.outside_nan is not None and (d.first_inf is None or _order(d.outside_nan) <= _order(d.first_inf)):
        return _outside_kind(d.outside_nan), d.outside_nan
    if d.first_inf is not None:
        return ("fp16-overflow" if d.first_inf.fp32_finite else "unstable-op"), d.first_inf
    if d.first_nan is not None and d.outside_inf is not None and _outside_kind(d.outside_inf) == "nonfinite-state" \
            and not (d.outside_inf.source or "").endswith("(buffer)") and _order(d.outside_inf) <= _order(d.first_nan):
        # weights already holding Inf (the previous update wrote them: float16 Adam dividing by a
        # flushed eps) make NaN in the first op that reads them; a trained parameter is never a
        # deliberate mask (a -inf causal-mask buffer is)
        return "nonfinite-state", d.outside_inf
    if d.first_nan is not None and d.outside_inf is not None and _data_inf(d.outside_inf) \
            and _order(d.outside_inf) <= _order(d.first_nan):
        # the batch arrived holding +inf (a constant column standardised by its zero std, x / 0): the
        # first NaN is Inf - Inf or 0 * Inf in the layer that read it (bench/real 384); a -inf-only
        # input can be a deliberate additive mask and stays with the op
        return "nonfinite-input", d.outside_inf
    if d.first_nan is not None:
        return ("fp16-overflow" if d.first_nan.fp32_finite else "unstable-op"), d.first_nan
    if d.outside_inf is not None:
        return _outside_kind(d.outside_inf), d.outside_inf
    return None, None


def _data_inf(e: OpEvent) -> bool:
    """An input of the batch (not state) holding +inf."""
    return _outside_kind(e) == "nonfinite-input" and any((t.posinf or 0) > 0 for t in e.inputs)


def _order(e: OpEvent) -> tuple[int, int]:
    return (0 if e.phase == "forward" else 1, e.index)


def _outside_kind(e: OpEvent) -> str:
    return "nonfinite-state" if (e.source or "").startswith("parameter") else "nonfinite-input"

"""How a cause rule turns the strength of its evidence into a finding."""

from __future__ import annotations

from ...findings import Finding


def finding(name: str, confidence: float, message: str, *, location=None, evidence=None, fix="",
            confirm="") -> Finding:
    """A cause finding whose severity follows its confidence (:meth:`Finding.from_confidence`).
    The confidence is kept within 0.01..0.99: a rule reads series, never the code, so it is
    never certain either way (an experiment of ``traindoc confirm`` is what decides)."""
    confidence = float(min(0.99, max(0.01, confidence)))
    return Finding.from_confidence(name, confidence, message, location=location or {}, evidence=evidence or [],
                                   fix=fix, confirm=confirm)

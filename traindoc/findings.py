"""``Finding``: the one type every path of traindoc ends in.

Reports, exit codes, JSON and ``traindoc explain`` need nothing else. A finding is plain
data (JSON-safe after :meth:`Finding.to_dict`), so rules stay pure and reports only draw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable

from .taxonomy import CAUSE, SYMPTOM, entry

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)
_RANK = {ERROR: 0, WARNING: 1, INFO: 2}


def severity_of(confidence: float) -> str:
    """The severity of a cause of this confidence: error from 0.5 up. Confidences are
    calibrated (the share of benchmark runs where a finding that strong named the right
    cause), so 0.5 is where the finding is more often right than wrong and worth failing
    a CI gate for; below it the cause is a lead to check, a warning."""
    return ERROR if confidence >= 0.5 else WARNING


def jsonable(value: Any) -> Any:
    """Make ``value`` JSON-safe: non-finite floats become the strings "nan"/"inf"/"-inf"."""
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return jsonable(value.item())
    return value


@dataclass
class Finding:
    """A named cause, symptom or check result with its evidence.

    ``location`` holds what applies of: step, rank, module, op, param, samples (dataset
    indices), column, rows, file, line. ``evidence`` is a list of small dicts naming a
    series (or a file/column) with the step and the value that supports the finding.
    """

    name: str
    severity: str
    message: str
    location: dict[str, Any] = field(default_factory=dict)
    evidence: list[dict[str, Any]] = field(default_factory=list)
    fix: str = ""
    confirm: str = ""
    confidence: float | None = None

    def __post_init__(self) -> None:
        entry(self.name)  # raises for a name outside the taxonomy
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}, not {self.severity!r}")

    @classmethod
    def from_confidence(cls, name: str, confidence: float, message: str, **fields: Any) -> Finding:
        """A finding whose severity follows its confidence (:func:`severity_of`); ``fields``
        are the other fields (location, evidence, fix, confirm)."""
        return cls(name, severity_of(confidence), message, confidence=confidence, **fields)

    @property
    def code(self) -> str:
        return entry(self.name).code

    @property
    def kind(self) -> str:
        return entry(self.name).kind

    @property
    def is_cause(self) -> bool:
        return self.kind == CAUSE

    @property
    def is_symptom(self) -> bool:
        return self.kind == SYMPTOM

    def sort_key(self) -> tuple:
        conf = -(self.confidence or 0.0)
        return (_RANK[self.severity], conf, self.location.get("step", 0) or 0, self.name)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "code": self.code, "severity": self.severity}
        if self.confidence is not None:
            d["confidence"] = round(float(self.confidence), 3)
        d["message"] = self.message
        d["location"] = jsonable(self.location)
        d["evidence"] = jsonable(self.evidence)
        d["fix"] = self.fix
        d["confirm"] = self.confirm
        return d

    def to_symptom_dict(self) -> dict[str, Any]:
        d = self.to_dict()
        d["step"] = jsonable(self.location.get("step"))
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Finding":
        return cls(
            name=d["name"],
            severity=d["severity"],
            message=d.get("message", ""),
            location=dict(d.get("location") or {}),
            evidence=list(d.get("evidence") or []),
            fix=d.get("fix", ""),
            confirm=d.get("confirm", ""),
            confidence=d.get("confidence"),
        )


def worst_severity(findings: list[Finding]) -> str | None:
    if not findings:
        return None
    return min((f.severity for f in findings), key=_RANK.__getitem__)


VERSION = 1  # of the JSON document (docs/cli-contract.md)


def document(
    causes: Iterable[Finding] = (),
    symptoms: Iterable[Finding] = (),
    findings: Iterable[Finding] = (),
    **extra: Any,
) -> dict[str, Any]:
    """The JSON document of the CLI/JSON contract: causes, symptoms, findings, and the
    run's own fields (``extra``, made JSON-safe)."""
    doc: dict[str, Any] = {
        "version": VERSION,
        "causes": [f.to_dict() for f in causes],
        "symptoms": [f.to_symptom_dict() for f in symptoms],
        "findings": [f.to_dict() for f in findings],
    }
    doc.update(jsonable(extra))
    return doc


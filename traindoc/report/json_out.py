"""The JSON document of ``spec/cli-contract.md`` (version 1)."""

from __future__ import annotations

import json
from typing import Any, Iterable

from ..findings import Finding

VERSION = 1


def document(
    causes: Iterable[Finding] = (),
    symptoms: Iterable[Finding] = (),
    findings: Iterable[Finding] = (),
    **extra: Any,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "version": VERSION,
        "causes": [f.to_dict() for f in causes],
        "symptoms": [f.to_symptom_dict() for f in symptoms],
        "findings": [f.to_dict() for f in findings],
    }
    from ..findings import jsonable

    doc.update(jsonable(extra))
    return doc


def dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, allow_nan=False)

"""``docs()`` for ``traindoc explain``: each lint rule's docstring, read from its code."""

from __future__ import annotations

from .engine import PARSE_ERROR, PARSE_ERROR_DOC
from .registry import load_all


def docs() -> dict[str, str]:
    out = {PARSE_ERROR: PARSE_ERROR_DOC}
    for name, r in load_all().items():
        doc = r.doc.rstrip()
        if "How to confirm:" not in doc and r.confirm:  # the rule's own confirm text, as a section
            doc += f"\n\nHow to confirm: {r.confirm}"
        out[name] = doc
    return out

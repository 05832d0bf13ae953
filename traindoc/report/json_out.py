"""The JSON document of the CLI/JSON contract (docs/cli-contract.md, version 1): built in
``findings.py`` (the decide layer hands it out), written here."""

from __future__ import annotations

import json
from typing import Any

from ..findings import VERSION, document  # noqa: F401 - re-exported for the present layer


def dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, allow_nan=False)

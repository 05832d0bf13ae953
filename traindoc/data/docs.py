"""Docs of the data checks for ``traindoc explain``: each check module's docstring."""

from __future__ import annotations

import ast
import importlib.util
import os


def docs() -> dict[str, str]:
    # Parsed, not imported: the checks need pyarrow (the ``traindoc[data]`` extra), and
    # ``traindoc explain`` must work on a core install.
    spec = importlib.util.find_spec("traindoc.data.checks")
    folder = os.path.dirname(spec.origin)
    out = {}
    for fname in sorted(os.listdir(folder)):
        if not fname.endswith(".py") or fname.startswith("_"):
            continue
        with open(os.path.join(folder, fname), encoding="utf-8") as fh:
            doc = ast.get_docstring(ast.parse(fh.read()))
        if doc:
            name, _, rest = doc.partition(":")
            out[name.strip()] = doc
    return out

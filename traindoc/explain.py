"""``traindoc explain NAME``: the documentation of a name, read from the code that
implements it (a rule's docstring), so that docs cannot drift from code."""

from __future__ import annotations

import importlib
from typing import Callable

from .errors import UserError
from .taxonomy import TAXONOMY

# Modules that define documented checks. Each exposes ``docs() -> dict[name, doc]``.
DOC_MODULES = [
    "traindoc.rules.docs",
    "traindoc.lint.docs",
    "traindoc.data.docs",
]


def all_docs() -> dict[str, list[tuple[str, str]]]:
    """name -> [(source, doc), ...] for every documented check."""
    out: dict[str, list[tuple[str, str]]] = {}
    for modname in DOC_MODULES:
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name and modname.startswith(exc.name):
                continue  # that part of traindoc is not installed in this version
            raise
        source = modname.split(".")[1]
        docs: Callable[[], dict[str, str]] = mod.docs
        for name, doc in docs().items():
            out.setdefault(name, []).append((source, doc))
    return out


def explain(name: str) -> str:
    docs = all_docs().get(name, [])  # first: importing the doc modules registers their names (lint)
    if name not in TAXONOMY:
        raise UserError(f"{name}: unknown name; `traindoc explain --list` lists them")
    e = TAXONOMY[name]
    what = e.kind if e.family == e.kind else f"{e.family} {e.kind}"
    head = f"{e.name} ({e.code}, {what}): {e.meaning}"
    if not docs:
        return head + "\n\nNo check implements this name yet in this version of traindoc.\n"
    parts = [head]
    for source, doc in docs:
        parts.append(f"\n[{source}]\n{doc.strip()}\n")
    return "\n".join(parts)


def listing() -> str:
    docs = all_docs()
    rows = []
    for e in TAXONOMY.values():
        checks = ",".join(s for s, _ in docs.get(e.name, [])) or "-"
        rows.append(f"{e.code}  {e.name:24s} {e.kind:8s} {checks:12s} {e.meaning}")
    return "\n".join(rows) + "\n"

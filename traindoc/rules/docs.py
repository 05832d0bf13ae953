"""Docs of the run rules for ``traindoc explain``."""

from __future__ import annotations


def docs() -> dict[str, str]:
    from . import load_all

    return {name: r.doc for name, r in load_all().items()}

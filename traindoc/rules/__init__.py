"""Rules: pure functions from a recorded run's series to findings.

Each rule lives in its own file, is registered under its taxonomy name with
:func:`rule`, declares the series it needs, and documents itself in four sections that
``traindoc explain NAME`` prints: What it detects / Why it happens / How to confirm /
How to fix. A rule whose series are missing is reported as "cannot tell", never guessed.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from dataclasses import dataclass
from typing import Callable, Iterable

from ..findings import Finding
from ..taxonomy import entry


@dataclass(frozen=True)
class Rule:
    name: str
    needs: tuple[str, ...]
    fn: Callable[..., list[Finding]]
    doc: str

    @property
    def code(self) -> str:
        return entry(self.name).code


RULES: dict[str, Rule] = {}


def rule(name: str, needs: Iterable[str] = ()) -> Callable:
    """Register ``fn(run) -> list[Finding]`` as the rule for taxonomy name ``name``."""
    entry(name)

    def deco(fn: Callable[..., list[Finding]]) -> Callable[..., list[Finding]]:
        doc = inspect.cleandoc(fn.__doc__ or "")
        RULES[name] = Rule(name, tuple(needs), fn, doc)
        return fn

    return deco


def load_all() -> dict[str, Rule]:
    """Import every rule module under ``traindoc.rules`` (each registers itself)."""
    pkg = importlib.import_module(__name__)
    for info in pkgutil.walk_packages(pkg.__path__, prefix=__name__ + "."):
        importlib.import_module(info.name)
    return RULES

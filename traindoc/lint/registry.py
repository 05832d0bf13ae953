"""The lint rule registry: one rule per file under ``rules/``, one stable name, one TD5xx code.

A rule is a pure function ``fn(module) -> iterable of Hit``; the engine turns hits into
:class:`~traindoc.findings.Finding` objects with the file, line and column. Its docstring
(What it detects / Why it happens / Example / How to fix / How to confirm) is what
``traindoc explain NAME`` prints.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..taxonomy import CAUSE, register

# Family "lint" (codes TD5xx); kind "cause": like the taxonomy's causes, each names something
# the user can fix. The names differ from the cause names (a lint rule names a code
# pattern, e.g. `unshifted-softmax`; the cause it leads to is named in its doc).
FAMILY = "lint"
KIND = CAUSE


@dataclass(frozen=True)
class Hit:
    """What a rule reports: the node to point at, one line of message, optional overrides,
    and ``related``: other lines the finding rests on, as (node, what it is) pairs (the
    softmax in ``forward`` that a cross_entropy receives): evidence, not more findings."""

    node: ast.AST
    message: str
    severity: str | None = None
    fix: str | None = None
    related: tuple = ()


@dataclass(frozen=True)
class LintRule:
    name: str
    code: str
    severity: str
    meaning: str
    needles: tuple[tuple[bytes, ...], ...]
    fn: Callable[[Any], Iterable[Hit]]
    doc: str
    fix: str
    confirm: str

    def wanted(self, source: bytes, seen: dict | None = None) -> bool:
        """Cheap text pre-filter: a rule runs only where every group of needles has a hit.
        ``seen`` memoises each needle's answer across the rules of one file (many rules
        share needles such as ``backward``)."""
        if seen is None:
            return all(any(n in source for n in group) for group in self.needles)
        for group in self.needles:
            for n in group:
                hit = seen.get(n)
                if hit is None:
                    hit = seen[n] = n in source
                if hit:
                    break
            else:
                return False
        return True


RULES: dict[str, LintRule] = {}


def lint_rule(
    name: str,
    code: str,
    severity: str,
    meaning: str,
    *,
    needles: Iterable[Iterable[str]] = (),
    fix: str = "",
    confirm: str = "",
) -> Callable:
    """Register ``fn(module) -> Iterable[Hit]`` as the lint rule ``name`` (code TD5xx)."""
    register(name, code, FAMILY, KIND, meaning)
    groups = tuple(tuple(n.encode() for n in g) for g in needles)

    def deco(fn: Callable) -> Callable:
        RULES[name] = LintRule(name, code, severity, meaning, groups, fn, inspect.cleandoc(fn.__doc__ or ""), fix, confirm)
        return fn

    return deco


_loaded = False


def load_all() -> dict[str, LintRule]:
    """Import every module under ``traindoc.lint.rules`` (each registers itself), sorted by code."""
    global _loaded
    if not _loaded:
        pkg = importlib.import_module(__package__ + ".rules")
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
            importlib.import_module(f"{pkg.__name__}.{info.name}")
        _loaded = True
    return dict(sorted(RULES.items(), key=lambda kv: kv[1].code))

"""Data checks: one file per taxonomy name, each a pure function of the merged profile
(and of the exact row-hash results) to findings. Registered with ``@check(name)``."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

from ...findings import Finding
from ..config import Config
from ..exact import ExactResult
from ..profile import DatasetProfile, ListProfile, NumericProfile

CHECKS: dict[str, Callable[["Context"], list[Finding]]] = {}


def check(name: str):
    def deco(fn):
        CHECKS[name] = fn
        fn.check_name = name
        return fn

    return deco


def load_all() -> dict[str, Callable]:
    for m in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{m.name}")
    return CHECKS


@dataclass
class Context:
    profile: DatasetProfile
    val: DatasetProfile | None
    exact: ExactResult | None
    cfg: Config

    @property
    def label(self) -> str | None:
        return self.profile.label_column

    def features(self) -> list[tuple[str, object]]:
        return [(n, c) for n, c in self.profile.columns.items() if n != self.label]

    def numeric(self, include_label: bool = False) -> list[tuple[str, NumericProfile]]:
        return [(n, c) for n, c in self.profile.columns.items()
                if isinstance(c, NumericProfile) and (include_label or n != self.label)]

    def lists(self) -> list[tuple[str, ListProfile]]:
        return [(n, c) for n, c in self.profile.columns.items() if isinstance(c, ListProfile)]

    def rows(self, packed, prof: DatasetProfile | None = None) -> list[int]:
        return (prof or self.profile).global_rows(packed)

    def first_file(self, packed, prof: DatasetProfile | None = None) -> dict:
        """{"file", "row" (within the file)} of the first example, for annotations."""
        w = (prof or self.profile).where(list(packed)[:1])
        return w[0] if w else {}


def rows_text(rows: list[int], n: int = 5) -> str:
    return ", ".join(f"{r:,}" for r in rows[:n]) + (" ..." if len(rows) > n else "")


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 row``, ``2 rows`` (``words`` for an irregular plural)."""
    return f"{num(n)} {word if n == 1 else (words or word + 's')}"


def num(x: float) -> str:
    """A number for a message: integers with thousands separators, else 4 significant digits."""
    if x != x or x in (float("inf"), float("-inf")):
        return str(x)
    if float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}".replace(",", " ")
    return f"{x:.4g}"


def run_checks(profile: DatasetProfile, val: DatasetProfile | None, exact: ExactResult | None,
               cfg: Config) -> list[Finding]:
    ctx = Context(profile, val, exact, cfg)
    out: list[Finding] = []
    for name, fn in sorted(load_all().items()):
        sev = cfg.severity.get(name)
        if sev == "off":
            continue
        for f in fn(ctx):
            if cfg.ignored(f.name, f.location.get("column")):
                continue
            if sev:
                f.severity = sev
            out.append(f)
    out.sort(key=lambda f: f.sort_key())
    return out

"""Thresholds: defaults, overridable in ``pyproject.toml`` ``[tool.traindoc.data]`` or a
``traindoc.toml`` (``[data]`` table, or top-level keys), globally or per column::

    [tool.traindoc.data]
    label = "clicked"
    exclude = ["request_id"]          # never profiled nor hashed
    outlier_k = 3.0
    [tool.traindoc.data.severity]     # per check: error | warning | info | off
    data-duplicates = "error"
    [tool.traindoc.data.columns.seq]  # per column
    max_length = 1024
    [tool.traindoc.data.columns.age]
    allow_null = true                 # the loader imputes it: nulls are not reported
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ..errors import UserError

DEFAULTS: dict[str, Any] = {
    # data-outlier: fence = Pq + k (Pq - P50) on each side, q = outlier_quantile
    "outlier_quantile": 0.999,
    "outlier_k": 3.0,
    # value outliers are warnings (heavy tails are often legitimate); set this to make a
    # value more than k spreads past the fence an error. List lengths are always errors.
    "outlier_error_k": None,
    "max_length": None,  # a hard cap on a list column's length (error when exceeded)
    # data-nonfinite: nulls in numeric / list columns and the label are NaN once in a
    # tensor, so they are errors unless allowed (a column the loader imputes or masks)
    "allow_null": False,
    # data-unnormalized
    "scale_ratio": 1e3,  # largest / smallest feature std
    "max_std": 100.0,
    "max_mean_over_std": 10.0,
    # class-imbalance: smallest class / largest class below this is a warning (1:10),
    # below info_class_ratio info (1:5); the reasons are in the check's doc
    "min_class_ratio": 0.1,
    "info_class_ratio": 0.2,
    # data-duplicates: above this fraction it is a warning, below info
    "duplicate_fraction": 0.01,
}
SEVERITIES = ("error", "warning", "info", "off")


@dataclass
class Config:
    values: dict[str, Any] = field(default_factory=dict)
    columns: dict[str, dict[str, Any]] = field(default_factory=dict)
    severity: dict[str, str] = field(default_factory=dict)
    label: str | None = None
    exclude: tuple[str, ...] = ()
    source: str | None = None

    def get(self, key: str, column: str | None = None) -> Any:
        if column is not None and key in self.columns.get(column, {}):
            return self.columns[column][key]
        return self.values.get(key, DEFAULTS[key])

    def ignored(self, name: str, column: str | None = None) -> bool:
        return column is not None and name in self.columns.get(column, {}).get("ignore", ())

    def severity_of(self, name: str, default: str) -> str:
        return self.severity.get(name, default)


def _toml(path: str) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML ({exc})") from None


def load(path: str | None = None, start: str = ".") -> Config:
    """Read ``path``, else ``traindoc.toml`` or ``pyproject.toml`` in ``start`` (or none)."""
    if path is not None:
        doc = _toml(path)
        table = doc.get("tool", {}).get("traindoc", {}).get("data") if "tool" in doc else None
        return parse(table if table is not None else doc.get("data", doc), path)
    for name in ("traindoc.toml", "pyproject.toml"):
        p = os.path.join(start, name)
        if os.path.exists(p):
            doc = _toml(p)
            table = doc.get("data") if name == "traindoc.toml" else doc.get("tool", {}).get("traindoc", {}).get("data")
            if table is not None:
                return parse(table, p)
    return Config()


def parse(table: dict, source: str | None = None) -> Config:
    where = source or "config"
    cfg = Config(source=source)
    for key, value in table.items():
        if key == "columns":
            if not isinstance(value, dict):
                raise UserError(f"{where}: `columns` must be a table of column tables")
            for col, t in value.items():
                for k in t:
                    if k not in DEFAULTS and k != "ignore":
                        raise UserError(f"{where}: unknown setting {k!r} for column {col!r}; known: "
                                        + ", ".join(sorted([*DEFAULTS, "ignore"])))
                cfg.columns[col] = dict(t)
        elif key == "severity":
            from ..taxonomy import TAXONOMY

            for name, sev in value.items():
                if name not in TAXONOMY:
                    raise UserError(f"{where}: severity for unknown check {name!r}")
                if sev not in SEVERITIES:
                    raise UserError(f"{where}: severity of {name} must be one of {', '.join(SEVERITIES)}")
                cfg.severity[name] = sev
        elif key == "label":
            cfg.label = str(value)
        elif key == "exclude":
            cfg.exclude = tuple(str(v) for v in value)
        elif key in DEFAULTS:
            cfg.values[key] = value
        else:
            raise UserError(f"{where}: unknown setting {key!r}; known: "
                            + ", ".join(sorted([*DEFAULTS, "columns", "exclude", "label", "severity"])))
    return cfg

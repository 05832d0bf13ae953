"""``# traindoc: ignore[name, ...]`` and ``# traindoc: ignore`` comments.

Comments are found with :mod:`tokenize` (so a ``#`` inside a string never counts), and
only in files that contain the text ``traindoc:`` at all, which keeps the common case free.
A suppression applies to findings reported on the same line; names or TD5xx codes may be
listed, separated by commas.
"""

from __future__ import annotations

import io
import re
import tokenize

_RX = re.compile(r"#\s*traindoc:\s*ignore\b(?:\[([^\]]*)\])?")
ALL = "*"


def suppressions(source: bytes) -> dict[int, set[str]]:
    """line -> names (or codes) suppressed on it; ``{"*"}`` for a bare ``ignore``."""
    if b"traindoc:" not in source:
        return {}
    out: dict[int, set[str]] = {}
    try:
        for tok in tokenize.tokenize(io.BytesIO(source).readline):
            if tok.type != tokenize.COMMENT:
                continue
            m = _RX.search(tok.string)
            if not m:
                continue
            names = {n.strip() for n in (m.group(1) or "").split(",") if n.strip()} if m.group(1) is not None else {ALL}
            out.setdefault(tok.start[0], set()).update(names or {ALL})
    except (tokenize.TokenError, SyntaxError):  # the parse error is reported on its own
        pass
    return out


def is_suppressed(table: dict[int, set[str]], line: int, name: str, code: str) -> bool:
    s = table.get(line)
    return bool(s) and (ALL in s or name in s or code in s)

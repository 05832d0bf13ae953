"""``# traindoc: ignore[name, ...]`` and ``# traindoc: ignore`` comments.

Comments are found with :mod:`tokenize` (so a ``#`` inside a string never counts), and
only in files that contain the text ``traindoc:`` at all, which keeps the common case free.
A suppression applies to findings reported on any line of the logical line (statement)
it ends: a comment on any line of ``y = torch.log(\n    torch.softmax(x))`` silences a
finding on either line. For a compound statement (``for``, ``with``, ``def``) that is
its header, never its body. A comment alone on its line applies to that line only.
Names or TD5xx codes may be listed, separated by commas.
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
    pending: list[tuple[int, set[str]]] = []  # comments of the logical line being read
    start = None  # its first line; None between logical lines

    def flush(first: int | None, last: int) -> None:
        for line, names in pending:
            for ln in range(first, last + 1) if first is not None else (line,):
                out.setdefault(ln, set()).update(names)
        pending.clear()

    try:
        for tok in tokenize.tokenize(io.BytesIO(source).readline):
            tt = tok.type
            if tt == tokenize.COMMENT:
                m = _RX.search(tok.string)
                if m:
                    names = {n.strip() for n in (m.group(1) or "").split(",") if n.strip()} if m.group(1) is not None else {ALL}
                    pending.append((tok.start[0], names or {ALL}))
            elif tt == tokenize.NEWLINE:  # the end of a logical line
                if pending:
                    flush(start, tok.start[0])
                start = None
            elif tt == tokenize.NL:  # a blank or comment-only line, or a line break inside brackets
                if start is None and pending:
                    flush(None, 0)
            elif start is None and tt not in _NOT_CODE:
                start = tok.start[0]
    except (tokenize.TokenError, SyntaxError):  # the parse error is reported on its own
        pass
    flush(None, 0)  # a comment of an unfinished line (tokenize error): its own line
    return out


_NOT_CODE = frozenset({tokenize.ENCODING, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER})


def is_suppressed(table: dict[int, set[str]], line: int, name: str, code: str) -> bool:
    s = table.get(line)
    return bool(s) and (ALL in s or name in s or code in s)

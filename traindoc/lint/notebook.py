"""Jupyter notebooks given by name: their code cells are linted as one script.

The code cells are joined in order (a later cell sees the imports and names of earlier
ones, as when the notebook runs top to bottom) and parsed once; each finding's line is
mapped back to its cell, counted from 1 over all cells as the notebook shows them, and
to the line within that cell (``location["cell"]``; text output ``nb.ipynb:cell 3:2:5``,
as ruff writes it). IPython syntax that is not Python (``%magic``, ``!shell``, a
``%%cell`` magic, ``obj?``) is blanked, keeping the line count. Markdown and raw cells
are skipped. Folders are still searched for ``*.py`` only.
"""

from __future__ import annotations

import json
from bisect import bisect_right

from ..findings import Finding


def code_of(raw: bytes) -> tuple[bytes, list[int], list[int]]:
    """The joined code, and for each code cell its first line in it and its cell number.
    ValueError for a file that is not an nbformat-4 notebook."""
    try:
        nb = json.loads(raw)
        cells = nb["cells"]
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        raise ValueError(f"not a Jupyter notebook ({type(exc).__name__}: {exc})") from None
    if not isinstance(cells, list):
        raise ValueError(f"not a Jupyter notebook (its cells are a {type(cells).__name__}, not a list)")
    out: list[str] = []
    starts: list[int] = []
    numbers: list[int] = []
    for i, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        if isinstance(src, list) and all(isinstance(x, str) for x in src):
            text = "".join(src)
        elif isinstance(src, str):
            text = src
        else:
            raise ValueError(f"not a Jupyter notebook (cell {i}'s source is not text)")
        lines = text.splitlines()
        if lines and lines[0].lstrip().startswith("%%"):  # a cell magic: the cell is not Python
            lines = [""] * len(lines)
        starts.append(len(out) + 1)
        numbers.append(i)
        out.extend("" if _ipython_only(ln) else ln for ln in lines)
        out.append("")  # a blank line between cells
    return "\n".join(out).encode(), starts, numbers


def _ipython_only(line: str) -> bool:
    s = line.strip()
    # `obj?` / `obj??` (help): Python never ends a line with "?" outside a string or comment
    return s.startswith(("%", "!")) or (s.endswith("?") and not any(c in s for c in "#'\""))


def to_cells(findings: list[Finding], starts: list[int], numbers: list[int]) -> list[Finding]:
    """Findings on the joined script, relocated to (cell, line within the cell)."""
    for f in findings:
        loc = f.location
        k = max(bisect_right(starts, loc.get("line", 1)) - 1, 0)
        if not starts:
            continue
        first = starts[k]
        loc["cell"] = numbers[k]
        loc["line"] = loc.get("line", 1) - first + 1
        if "end_line" in loc:
            loc["end_line"] = max(loc["end_line"] - first + 1, loc["line"])
        for ev in f.evidence:
            if "line" in ev:  # a cited line may sit in another cell than the finding's
                j = max(bisect_right(starts, ev["line"]) - 1, 0)
                ev["line"], ev["cell"] = ev["line"] - starts[j] + 1, numbers[j]
    return findings

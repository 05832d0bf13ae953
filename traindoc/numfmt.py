"""The one way a number is printed in a finding, a report, a plot label or a verdict.

Four significant digits; three in scientific notation below 1e-3 or from 1e5 on, where
the exponent takes the room of the fourth digit. Non-finite values print as ``nan``,
``inf`` and ``-inf``. Depends on nothing in the package, so every layer can import it.
"""

from __future__ import annotations

import math


def fmt(v: float) -> str:
    if not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    a = abs(v)
    return f"{v:.3g}" if a != 0 and (a < 1e-3 or a >= 1e5) else f"{v:.4g}"

"""A float16 op that failed because a small value flushed, not because one passed 65504.

Two shapes, both read off the replayed culprit op (no extra run):

- the epsilon that guards the op is written on its line as a literal (or a name the script
  assigns one: `EPS = 1e-15`) that float16 rounds to 0
  (``x / (n + 1e-12)``: anything below 2**-25 = 3e-8 is 0 in float16), and an exact 0
  reached the op: the guard vanished in float16, so the op divided by (or took the log of) 0;
- a division in float16 whose divisor is in float16's subnormal range (below its smallest
  normal number, 2**-14 = 6.1e-5, where it keeps few digits and flushes to 0 below 6e-8)
  while the numerator is modest (|x| < 4): such a quotient passes 65504 only because the
  divisor is that small, so the small values, not large ones, broke it (a FAVOR+ normaliser
  of exp features that flushed); the op is finite in float32.

Either way the cause is ``fp16-underflow`` and the fix keeps the op in float32 or uses an
epsilon float16 can hold.
"""

from __future__ import annotations

import re
from typing import Any

FP16_MAX = 65504.0  # (as in .stats, which imports torch: rules read this module without it)
FP16_MIN_NORMAL = 2.0 ** -14  # 6.1e-5: below it float16 is subnormal
FP16_ZERO_BELOW = 2.0 ** -25  # float16 rounds any magnitude below this to 0
# numerator bound: |x| / 6.1e-5 < 65504 for |x| < 4, so such a quotient overflows only
# through a subnormal divisor
SMALL_NUMERATOR = FP16_MAX * FP16_MIN_NORMAL
# a guard written as a float literal in exponent form, added or passed (`+ 1e-12`,
# `clamp(min=1e-12)`, `max(n, 1e-12)`), not a factor (`1e-10 * reg`)
_GUARD = re.compile(r"(?:\+|,|=|\()\s*((?:\d+\.?\d*|\.\d+)[eE]-\d+)(?![\w.])(?!\s*[*/])")
_GUARDED = {"div", "log", "log2", "log10", "sqrt", "rsqrt", "reciprocal", "pow"}


def _literal_flushed(code: str | None) -> float | None:
    """The first guard literal on the op's code line (comments cut off) that float16 rounds
    to 0 (but is not 0)."""
    if not code:
        return None
    line = code.split(": ", 1)[-1].split("#", 1)[0]
    for m in _GUARD.finditer(line):
        v = float(m.group(1))
        if 0 < v < FP16_ZERO_BELOW:
            return v
    return None


# a guard written as a name (`+ EPS`, `+ self.eps`), and that name's assignments in the script
_NAMED = re.compile(r"(?:\+|,|\()\s*((?:self\.)?[A-Za-z_]\w*)(?![\w.(\[])(?!\s*[*/])")
_NUM = r"((?:\d+\.?\d*|\.\d+)[eE]-\d+)"


def _named_flushed(code: str | None, source: str | None) -> float | None:
    """The first guard on the op's line written as a name (`+ EPS`) whose every assignment in
    ``source`` (the script: `EPS = 1e-15`, `eps=1e-15` as a default, `self.eps = 1e-15`) is one
    literal that float16 rounds to 0 (pytorch_geometric's EPS, bench/real 401)."""
    if not code or not source:
        return None
    line = code.split(": ", 1)[-1].split("#", 1)[0]
    for m in _NAMED.finditer(line):
        name = m.group(1).rsplit(".", 1)[-1]
        # assignments at a line's start (`EPS = 1e-15`, `self.eps = 1e-15`) or defaults in a signature
        vals = re.findall(rf"(?:^[ \t]*(?:self\.)?|[(,][ \t]*){re.escape(name)}[ \t]*(?::[ \t]*float[ \t]*)?=(?!=)"
                          rf"[ \t]*([^\s,)#]+)", source, flags=re.M)
        nums = [float(v) for v in vals if re.fullmatch(_NUM, v)]
        if vals and len(nums) == len(vals) and all(0 < v < FP16_ZERO_BELOW for v in nums):
            return nums[0]
    return None


def flushed(c: dict[str, Any], source: str | None = None) -> tuple[str, str] | None:
    """(why, fix) when the culprit op ``c`` (a forensics culprit dict) failed through a
    value float16 flushed, else None. ``source``: the script's text, to read a guard
    written as a name."""
    ins = c.get("inputs") or []
    if not ins or any(i.get("dtype") != "float16" for i in ins[:2]):
        return None
    short = c.get("short")
    eps = _literal_flushed(c.get("code"))
    if eps is None:
        eps = _named_flushed(c.get("code"), source)
    # the operand the guard protects reached exactly 0: the divisor of a division, the
    # argument of a log or root (a guarded quantity is >= 0, so its minimum is the 0)
    guarded = ins[1] if short == "div" and len(ins) > 1 else ins[0]
    zero = guarded.get("min") == 0 and (guarded.get("max") or 0) >= 0
    if eps is not None and short in _GUARDED and zero:
        return (f"the epsilon {eps:g} guarding it is 0 in float16 (magnitudes below 3e-8 round to 0), so the guard "
                "vanished and an exact 0 reached the op",
                f"use an epsilon float16 can hold (6.1e-5 or more: torch.finfo(torch.float16).tiny), or compute this "
                f"op in float32 (torch.autocast(device_type, enabled=False) around it and .float() inputs), or train "
                f"in bfloat16")
    if short in ("div", "reciprocal") and c.get("fp32_finite") and len(ins) >= (2 if short == "div" else 1):
        num, den = (ins[0], ins[1]) if short == "div" else ({"absmax": 1.0}, ins[0])
        lo, hi = den.get("min"), den.get("max")
        if lo is None or hi is None or lo * hi <= 0:
            return None  # a divisor reaching 0 itself: not this shape
        tiny = min(abs(lo), abs(hi))
        if tiny < FP16_MIN_NORMAL and (num.get("absmax") or 0.0) < SMALL_NUMERATOR:
            return (f"its divisor reaches {tiny:.3g}, inside float16's subnormal range (below 6.1e-5, where it keeps "
                    f"few digits and flushes to 0 under 6e-8), and the numerator is modest (|x| <= "
                    f"{num.get('absmax') or 0:.3g}): the small values underflowed and the quotient passed 65504; "
                    "the same op is finite in float32",
                    "compute the small values and this division in float32 (torch.autocast(device_type, "
                    "enabled=False) around them and .float() inputs), or train in bfloat16")
    return None

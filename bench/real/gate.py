"""Symptom gate for the real-fault benchmark: run every program's ``buggy.py`` and
``fixed.py`` on 3 seeds with plain Python (no traindoc) and check that the buggy version
shows its declared symptom on every seed and the fixed version on none.

    python bench/real/gate.py [-j 2] [--only SUBSTR] [--seeds 0,1,2]

Each program declares its symptom in the docstring of ``buggy.py``, one line:

    symptom: nonfinite             the final loss is NaN/Inf
    symptom: loss-above X          the final loss is above X
    symptom: loss-below X          the final loss is below X (a leak: too good to be true)
    symptom: acc-below X           the final accuracy (as the script defines it) is below X
    symptom: final-loss-ratio R    buggy's final loss >= R x fixed's final loss, seed by seed

Every script prints a last line ``final_loss=<float> acc=<float>``. A program fails the
gate if the buggy version misses the symptom on any seed, the fixed version shows it on
any seed, or either crashes. Exit status 1 when any program fails.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
SYMPTOM = re.compile(r"^\s*symptom\s*:\s*([a-z-]+)\s*([-+0-9.eE]*)\s*$", re.I | re.M)
RESULT = re.compile(r"final_loss=(\S+)\s+acc=(\S+)")


def docstring(path: Path) -> str:
    m = re.match(r'\s*(?:"""|\'\'\')(.*?)(?:"""|\'\'\')', path.read_text(), re.S)
    return m.group(1) if m else ""


def symptom(path: Path) -> tuple[str, float | None]:
    m = SYMPTOM.search(docstring(path))
    if not m:
        raise SystemExit(f"{path}: no 'symptom: KIND [X]' line in the module docstring")
    kind = m.group(1).lower()
    if kind not in ("nonfinite", "loss-above", "loss-below", "acc-below", "final-loss-ratio"):
        raise SystemExit(f"{path}: unknown symptom {kind!r}")
    arg = float(m.group(2)) if m.group(2) else None
    if kind != "nonfinite" and arg is None:
        raise SystemExit(f"{path}: symptom {kind} needs a number")
    return kind, arg


def parse_result(text: str) -> tuple[float, float] | None:
    """The last ``final_loss=... acc=...`` line of a script's output, as floats."""
    hits = RESULT.findall(text)
    if not hits:
        return None
    loss, acc = hits[-1]
    return float(loss), float(acc)


def shows(kind: str, arg: float | None, loss: float, acc: float, ref_loss: float | None = None) -> bool:
    """Whether one run's (loss, acc) shows the symptom; ``ref_loss`` is the fixed
    version's final loss on the same seed (for final-loss-ratio)."""
    finite = math.isfinite(loss)
    if kind == "nonfinite":
        return not finite
    if kind == "loss-above":
        return not finite or loss > arg
    if kind == "loss-below":
        return finite and loss < arg
    if kind == "acc-below":
        return not math.isfinite(acc) or acc < arg
    if kind == "final-loss-ratio":
        if ref_loss is None or not math.isfinite(ref_loss):
            return False
        return not finite or loss >= arg * max(ref_loss, 1e-12)
    raise ValueError(kind)


def programs(only: str = "") -> list[Path]:
    return sorted(p for p in HERE.iterdir() if p.is_dir() and (p / "buggy.py").exists() and only in p.name)


def run(script: Path, seed: int, timeout: float = 120) -> tuple[float, float] | str:
    env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE", OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    try:
        r = subprocess.run([sys.executable, str(script), "--seed", str(seed)], capture_output=True,
                           text=True, timeout=timeout, env=env, cwd=script.parent)
    except subprocess.TimeoutExpired:
        return "timeout"
    res = parse_result(r.stdout)
    if res is None:
        tail = (r.stderr.strip().splitlines() or ["no result line"])[-1]
        return f"rc={r.returncode}: {tail[:120]}"
    return res


def gate(prog: Path, seeds: list[int]) -> dict:
    kind, arg = symptom(prog / "buggy.py")
    rows, ok, why = [], True, []
    for s in seeds:
        b, f = run(prog / "buggy.py", s), run(prog / "fixed.py", s)
        if isinstance(b, str) or isinstance(f, str):
            ok = False
            why.append(f"seed {s}: " + (f"buggy {b}" if isinstance(b, str) else f"fixed {f}"))
            rows.append((s, b, f))
            continue
        bs = shows(kind, arg, *b, ref_loss=f[0])
        fs = shows(kind, arg, *f, ref_loss=f[0]) if kind != "final-loss-ratio" else False
        if not bs:
            ok = False
            why.append(f"seed {s}: buggy lacks the symptom")
        if fs:
            ok = False
            why.append(f"seed {s}: fixed shows the symptom")
        rows.append((s, b, f))
    return {"program": prog.name, "symptom": f"{kind} {'' if arg is None else arg}".strip(),
            "ok": ok, "why": why, "rows": rows}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--seeds", default="0,1,2")
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")]
    progs = programs(a.only)
    with ThreadPoolExecutor(a.j) as ex:
        results = list(ex.map(lambda p: gate(p, seeds), progs))
    fmt = lambda r: r if isinstance(r, str) else f"{r[0]:.4g}/{r[1]:.3f}"
    for r in results:
        runs = "  ".join(f"s{s}: {fmt(b)} | {fmt(f)}" for s, b, f in r["rows"])
        print(f"{'PASS' if r['ok'] else 'FAIL'} {r['program']:36s} {r['symptom']:24s} {runs}")
        for w in r["why"]:
            print(f"       {w}")
    n_ok = sum(r["ok"] for r in results)
    print(f"\n{n_ok}/{len(results)} programs pass the gate (buggy: symptom on every seed; fixed: on none)"
          "  [columns: loss/acc buggy | fixed]")
    return 0 if n_ok == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Fault benchmark: run every script in bench/faults/ under ``traindoc run``, diagnose it
with ``traindoc diagnose --json`` and score the ranked causes against the cause the script
declares in its docstring (``expect: NAME``, ``Fault: NAME`` or ``expect: healthy``).

    python bench/faults/score.py [-j 2] [--seeds default,1,2] [--only SUBSTR] [--rerun] [--cache DIR]

Prints one row per cause: scripts, top-1 and top-3 hits, runs where the cause was ranked
first wrongly, and the healthy runs' false alarms (a cause of severity ``error`` on a run
that has no fault). ``--seeds`` runs every script once per seed (``default`` = the
script's own default) to show that the rules hold beyond one draw. Runs are cached by the
hash of the script, the seed and traindoc's monitor and forensics code, so re-scoring
after a rule change only re-runs ``diagnose`` (seconds per script). The time per script
is its CPU time (user + system, children included): wall time on a shared machine
measures the neighbours.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
EXPECT = re.compile(r"^\s*(?:expect|fault)\s*:\s*([a-z0-9-]+)", re.I | re.M)
LIMIT_S = 30.0  # the benchmark's budget per script on 2 CPU cores


def expected(path: Path) -> str:
    text = path.read_text()
    doc = re.match(r'\s*(?:"""|\'\'\')(.*?)(?:"""|\'\'\')', text, re.S)
    m = EXPECT.search(doc.group(1) if doc else "")
    if not m:
        raise SystemExit(f"{path.name}: no 'expect: NAME' line in the module docstring")
    return m.group(1).lower()


def scripts(only: str) -> list[Path]:
    return sorted(p for p in HERE.glob("*.py") if p.name != "score.py" and not p.name.startswith("_")
                  and only in p.stem)


def _key(path: Path, seed: str) -> str:
    h = hashlib.sha256(path.read_bytes() + seed.encode())
    for sub in ("monitor", "forensics"):
        for f in sorted((ROOT / "traindoc" / sub).glob("*.py")):
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _traindoc() -> list[str]:
    """The installed ``traindoc`` command, as a user runs it (replays are on for it)."""
    exe = shutil.which("traindoc", path=str(Path(sys.executable).parent)) or shutil.which("traindoc")
    return [exe] if exe else [sys.executable, "-m", "traindoc"]


def record(path: Path, seed: str, cache: Path, rerun: bool, any_version: bool = False
           ) -> tuple[Path, float, float, int]:
    """Run the script under ``traindoc run`` (or reuse the cached run); return the run
    folder, the script's wall and CPU seconds and its exit code. ``any_version`` reuses
    the newest cached run of the script and seed even if traindoc's code changed since."""
    out = cache / f"{path.stem}-s{seed}-{_key(path, seed)}"
    done = out / "bench.json"
    if any_version and not done.exists():
        older = sorted(cache.glob(f"{path.stem}-s{seed}-*/bench.json"), key=lambda p: p.stat().st_mtime)
        if older:
            done, out = older[-1], older[-1].parent
    if done.exists() and not rerun:
        info = json.loads(done.read_text())
        return out, info["wall_s"], info.get("cpu_s", float("nan")), info["rc"]
    if out.exists():
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OMP_WAIT_POLICY="PASSIVE", OMP_NUM_THREADS="1", PYTHONHASHSEED="0")
    args = [] if seed == "default" else ["--seed", seed]
    log = out.parent / f".{out.name}.log"
    t0 = time.perf_counter()
    with open(log, "w") as fh:
        p = subprocess.Popen([*_traindoc(), "run", "--out", str(out), str(path), *args], env=env,
                             stdout=fh, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(p.pid, 0)  # the child's own CPU time, not the neighbours'
        p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t0
    out.mkdir(parents=True, exist_ok=True)
    shutil.move(str(log), out / "bench.log")
    cpu = usage.ru_utime + usage.ru_stime
    done.write_text(json.dumps({"wall_s": wall, "cpu_s": cpu, "rc": p.returncode}))
    return out, wall, cpu, p.returncode


def diagnose(run: Path) -> dict:
    r = subprocess.run([sys.executable, "-m", "traindoc", "diagnose", str(run), "--json"],
                       capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, OMP_WAIT_POLICY="PASSIVE", OMP_NUM_THREADS="1"))
    try:
        if r.returncode in (0, 1):
            return json.loads(r.stdout)
    except json.JSONDecodeError:
        pass
    return {"causes": [], "error": (r.stderr.strip().splitlines() or ["?"])[-1]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", type=int, default=2, help="scripts run in parallel (default 2)")
    ap.add_argument("--only", default="", help="only scripts whose name contains this")
    ap.add_argument("--rerun", action="store_true", help="ignore cached runs")
    ap.add_argument("--any-version", action="store_true",
                    help="reuse cached runs recorded by an older traindoc (rules are always re-run)")
    ap.add_argument("--seeds", default="default", help="comma-separated seeds per script; 'default' = the script's own")
    ap.add_argument("--cache", default=os.environ.get("TRAINDOC_BENCH_CACHE",
                                                      str(Path.home() / ".cache" / "traindoc-bench")))
    ap.add_argument("--json", help="also write the per-script results here")
    ap.add_argument("-v", action="store_true", help="print every script's ranked causes")
    a = ap.parse_args()
    cache = Path(a.cache)
    cache.mkdir(parents=True, exist_ok=True)
    seeds = [s.strip() for s in a.seeds.split(",") if s.strip()]
    items = [(p, expected(p), s) for s in seeds for p in scripts(a.only)]

    def one(item):
        path, exp, seed = item
        run, wall, cpu, rc = record(path, seed, cache, a.rerun, a.any_version)
        doc = diagnose(run)
        causes = doc.get("causes", [])
        name = path.name if seed == "default" else f"{path.name} --seed {seed}"
        return {"script": name, "expect": exp, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "rc": rc,
                "ranked": [(c["name"], c["severity"], c.get("confidence")) for c in causes],
                "error": doc.get("error")}

    with ThreadPoolExecutor(a.j) as ex:
        results = list(ex.map(one, items))

    rows: dict[str, dict] = defaultdict(lambda: {"n": 0, "top1": 0, "top3": 0, "wrong1": 0, "false": 0, "slow": 0})
    for r in results:
        names = [n for n, _, _ in r["ranked"]]
        exp = r["expect"]
        row = rows[exp]
        row["n"] += 1
        row["slow"] += r["cpu_s"] > LIMIT_S
        if exp == "healthy":
            fa = [n for n, sev, _ in r["ranked"] if sev == "error"]
            row["false"] += bool(fa)
            r["ok1"] = r["ok3"] = not fa
            row["top1"] += r["ok1"]
            row["top3"] += r["ok3"]
        else:
            r["ok1"] = names[:1] == [exp]
            r["ok3"] = exp in names[:3]
            row["top1"] += r["ok1"]
            row["top3"] += r["ok3"]
            if names and not r["ok1"]:
                rows[names[0]]["wrong1"] += 1
        if a.v or not r["ok1"]:
            top = ", ".join(f"{n}:{sev[0]}{'' if c is None else f'{c:.2f}'}" for n, sev, c in r["ranked"][:4])
            mark = "ok " if r["ok1"] else ("top3" if r["ok3"] else "MISS")
            print(f"  {mark:4s} {r['script']:38s} expect {exp:22s} got {top or '(none)'}"
                  + (f"  [{r['error']}]" if r.get("error") else ""))

    print()
    print(f"{'cause':24s} {'scripts':>7s} {'top-1':>6s} {'top-3':>6s} {'wrong #1':>8s} {'false alarm':>11s} {'>30 s CPU':>9s}")
    faulty = [r for r in results if r["expect"] != "healthy"]
    healthy = [r for r in results if r["expect"] == "healthy"]
    for name in sorted(rows, key=lambda n: (n == "healthy", n)):
        row = rows[name]
        if row["n"] == 0:
            print(f"{name:24s} {0:7d} {'':>6s} {'':>6s} {row['wrong1']:8d} {'':>11s} {'':>9s}")
            continue
        fa = f"{row['false']}/{row['n']}" if name == "healthy" else ""
        print(f"{name:24s} {row['n']:7d} {row['top1']:3d}/{row['n']:<2d} {row['top3']:3d}/{row['n']:<2d} "
              f"{row['wrong1']:8d} {fa:>11s} {row['slow']:9d}")
    n = len(faulty)
    t1 = sum(r["ok1"] for r in faulty)
    t3 = sum(r["ok3"] for r in faulty)
    fa = sum(not r["ok1"] for r in healthy)
    print()
    if n:
        print(f"faulty scripts {n}: top-1 {t1}/{n} = {t1 / n:.0%}, top-3 {t3}/{n} = {t3 / n:.0%}")
    print(f"healthy scripts {len(healthy)}: false alarms (a cause of severity error) {fa}")
    cpus = sorted(r["cpu_s"] for r in results)
    walls = sorted(r["wall_s"] for r in results)
    if cpus:
        print(f"per script under traindoc run (incl. the replay of a bad step): CPU median {cpus[len(cpus) // 2]:.1f} s, "
              f"max {cpus[-1]:.1f} s; wall median {walls[len(walls) // 2]:.1f} s, max {walls[-1]:.1f} s "
              f"(-j {a.j}, cached runs report their recording)")
    # calibration: how often the top cause was right, by its confidence
    bins = [(0.0, 0.5), (0.5, 0.7), (0.7, 0.85), (0.85, 1.01)]
    cal = []
    for lo, hi in bins:
        sel = [r for r in faulty if r["ranked"] and lo <= (r["ranked"][0][2] or 0) < hi]
        if sel:
            cal.append(f"{lo:.2f}-{min(hi, 1):.2f}: {sum(r['ok1'] for r in sel)}/{len(sel)} right")
    if cal:
        print("top-1 confidence vs accuracy: " + "; ".join(cal))
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

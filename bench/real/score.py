"""Real-fault benchmark: score traindoc on faulty training programs reproduced from public
bug reports (``bench/real/NN_name/buggy.py``), each with its fixed twin (``fixed.py``).

    python bench/real/score.py [-j 2] [--only SUBSTR] [--seeds 0,1,2] [--no-confirm]
                               [--confirm-fixed] [--rerun] [--cache DIR] [--json OUT]

1. Every ``buggy.py`` and ``fixed.py`` runs under ``traindoc run --out ...`` on each seed,
   then ``traindoc diagnose --json``; a buggy run scores top-1 / top-3 when the cause its
   docstring declares (``expect: NAME``) is ranked first / among the first three.
2. Seed 0 of every buggy program (and of every fixed one with ``--confirm-fixed``) is
   re-ranked by ``traindoc confirm --json --seconds 60`` and scored again ("+confirm").
3. A fixed run with any cause of severity ``error`` is a false alarm.

Programs are split into two halves by a fixed rule, the parity of the first byte of
sha256(folder name): even = "calibration" (the half a threshold may be tuned on), odd =
"held-out" (the half that must not be looked at while tuning). Both halves and the total
are reported, with and without confirm.

Runs are cached by the hash of the script, the seed and the part of traindoc's source that
records (``traindoc/**/*.py`` but the rules, reports, importers, lint and data checks): a
change of the rules re-diagnoses the cached recordings, a change of the monitor re-records
them (this benchmark measures the code as it is). ``confirm`` results are cached in the run
folder by the hash of the experiments' code; the "+confirm" ranking is always re-derived by
the current rules from the run's ``confirm.json``. Time per run is its
CPU time (user + system, children included), as in bench/faults/score.py.
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
EXPECT = re.compile(r"^\s*(?:expect|fault)\s*:\s*([a-z0-9-]+)", re.I | re.M)
CONFIRM_SECONDS = 60


def docstring(path: Path) -> str:
    m = re.match(r'\s*(?:"""|\'\'\')(.*?)(?:"""|\'\'\')', path.read_text(), re.S)
    return m.group(1) if m else ""


def expected(path: Path) -> str:
    m = EXPECT.search(docstring(path))
    if not m:
        raise SystemExit(f"{path}: no 'expect: NAME' line in the module docstring")
    return m.group(1).lower()


BATCH = re.compile(r"^\s*batch\s*:\s*(\d+)", re.M)


def half(name: str) -> str:
    """The fixed split: parity of the first byte of sha256(folder name). Programs added later
    with ``batch: N`` (N >= 2) in their docstring are a held-out set of their own ("batch N"):
    written by someone who did not read traindoc's rules, scored before anyone looked at them."""
    m = BATCH.search(docstring(HERE / name / "buggy.py"))
    if m and int(m.group(1)) >= 2:
        return f"batch {m.group(1)}"
    return "calibration" if hashlib.sha256(name.encode()).digest()[0] % 2 == 0 else "held-out"


def programs(only: str = "") -> list[Path]:
    return sorted(p for p in HERE.iterdir()
                  if p.is_dir() and (p / "buggy.py").exists() and (p / "fixed.py").exists() and only in p.name)


_CODE_HASH: dict[bool, str] = {}
# What `diagnose` and `confirm` read, not what `traindoc run` records with: a change there
# re-scores the cached recordings instead of re-recording them (`confirm` has its own hash).
NOT_RECORDING = ("traindoc/rules/", "traindoc/report/", "traindoc/lint/", "traindoc/data/", "traindoc/importers/",
                 "traindoc/diagnose.py", "traindoc/phases.py", "traindoc/code_evidence.py", "traindoc/explain.py", "traindoc/taxonomy.py",
                 "traindoc/confirm/")


def code_hash(recording: bool = False) -> str:
    """Hash of every traindoc/**/*.py (``recording``: only the code `traindoc run` records with)."""
    if recording not in _CODE_HASH:
        h = hashlib.sha256()
        for f in sorted((ROOT / "traindoc").rglob("*.py")):
            rel = str(f.relative_to(ROOT))
            if recording and rel.startswith(NOT_RECORDING):
                continue
            h.update(rel.encode() + f.read_bytes())
        _CODE_HASH[recording] = h.hexdigest()[:12]
    return _CODE_HASH[recording]


def confirm_hash() -> str:
    """Hash of the experiments' code (traindoc/confirm/ but its re-ranking, apply.py): a change
    there re-runs `confirm`; a change of the rules only re-ranks from the cached confirm.json."""
    h = hashlib.sha256()
    for f in sorted((ROOT / "traindoc" / "confirm").rglob("*.py")):
        if f.name != "apply.py":
            h.update(str(f.relative_to(ROOT)).encode() + f.read_bytes())
    return h.hexdigest()[:12]


def _key(path: Path, seed: str) -> str:
    return hashlib.sha256(path.read_bytes() + seed.encode() + code_hash(recording=True).encode()).hexdigest()[:16]


def _traindoc() -> list[str]:
    exe = shutil.which("traindoc", path=str(Path(sys.executable).parent)) or shutil.which("traindoc")
    return [exe] if exe else [sys.executable, "-m", "traindoc"]


def _env() -> dict:
    return dict(os.environ, OMP_WAIT_POLICY="PASSIVE", OMP_NUM_THREADS="1", PYTHONHASHSEED="0",
                TRAINDOC_ALLOW_UNSANDBOXED=os.environ.get("TRAINDOC_ALLOW_UNSANDBOXED", "1"))


def record(script: Path, seed: str, cache: Path, rerun: bool, any_version: bool = False) -> tuple[Path, dict]:
    """``traindoc run`` the script (or reuse the cached run): the run folder and its timing.
    ``any_version`` reuses a cached run of the same script and seed recorded by another
    traindoc version (the newest: an older recording may lack what the monitor records now)."""
    prog = script.parent.name
    out = cache / f"{prog}-{script.stem}-s{seed}-{_key(script, seed)}"
    done = out / "bench.json"
    if any_version and not done.exists():
        script_key = hashlib.sha256(script.read_bytes()).hexdigest()
        older = [d for d in cache.glob(f"{prog}-{script.stem}-s{seed}-*/bench.json")
                 if json.loads(d.read_text()).get("script_sha", script_key) == script_key]
        older.sort(key=lambda d: -d.stat().st_mtime)
        if older:
            done, out = older[0], older[0].parent
    if done.exists() and not rerun:
        return out, json.loads(done.read_text())
    if out.exists():
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    log = out.parent / f".{out.name}.log"
    p = subprocess.Popen([*_traindoc(), "run", "--out", str(out), str(script), "--seed", seed],
                         env=_env(), stdout=open(log, "w"), stderr=subprocess.STDOUT, cwd=script.parent)
    t0 = time.perf_counter()
    _, status, usage = os.wait4(p.pid, 0)  # the child's own CPU time, not the neighbours'
    rc = os.waitstatus_to_exitcode(status)
    info = {"wall_s": time.perf_counter() - t0, "cpu_s": usage.ru_utime + usage.ru_stime, "rc": rc,
            "script_sha": hashlib.sha256(script.read_bytes()).hexdigest(), "traindoc_code": code_hash()}
    out.mkdir(parents=True, exist_ok=True)
    shutil.move(str(log), out / "bench.log")
    done.write_text(json.dumps(info))
    return out, info


def diagnose(run: Path, experiments: bool = False) -> dict:
    """``traindoc diagnose --json`` with the current rules (``experiments``: re-ranked with the
    run's confirm.json, else without it)."""
    r = subprocess.run([sys.executable, "-m", "traindoc", "diagnose", str(run), "--json",
                        *(() if experiments else ("--no-experiments",))],
                       capture_output=True, text=True, timeout=300, env=_env())
    try:
        if r.returncode in (0, 1):
            return json.loads(r.stdout)
    except json.JSONDecodeError:
        pass
    return {"causes": [], "error": (r.stderr.strip().splitlines() or ["?"])[-1]}


def confirm(run: Path, script: Path, rerun: bool) -> dict:
    """``traindoc confirm --json --seconds 60`` on a recorded run (cached in the run folder)."""
    done = run / "bench-confirm.json"
    if done.exists() and not rerun:
        doc = json.loads(done.read_text())
        if doc.get("bench", {}).get("confirm_code") in (None, confirm_hash()) and (run / "confirm.json").exists():
            return doc
    t0 = time.perf_counter()
    p = subprocess.Popen([*_traindoc(), "confirm", "--json", "--yes", "--seconds", str(CONFIRM_SECONDS), str(run)],
                         env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=script.parent)
    stdout, stderr = p.communicate(timeout=1800)
    doc: dict
    try:
        doc = json.loads(stdout)
    except json.JSONDecodeError:
        doc = {"causes": [], "error": (stderr.strip().splitlines() or [f"rc={p.returncode}"])[-1]}
    doc["bench"] = {"wall_s": time.perf_counter() - t0, "rc": p.returncode, "confirm_code": confirm_hash()}
    done.write_text(json.dumps(doc))
    return doc


def ranked(doc: dict) -> list[tuple[str, str, float | None]]:
    return [(c["name"], c.get("severity", "?"), c.get("confidence")) for c in doc.get("causes", [])]


def rule_errors(doc: dict) -> list[str]:
    """The rules that raised while diagnosing (``monitor-error`` findings "rule X failed: ..."):
    a rule that raises names nothing, so a miss may be a crash, not a threshold."""
    return [f.get("message", "") for f in doc.get("findings", [])
            if f.get("name") == "monitor-error" and str(f.get("message", "")).startswith("rule ")]


def experiments(doc: dict) -> list[str]:
    """``experiment:verdict(cause)`` for each experiment that confirm ran."""
    ex = doc.get("experiments") or {}
    res = ex.get("results", []) if isinstance(ex, dict) else ex
    return [f"{e.get('experiment', '?')}:{e.get('verdict', '?')}({e.get('cause', '?')})"
            for e in res if isinstance(e, dict)]


def fmt(rk: list, n: int = 3) -> str:
    return ", ".join(f"{name}:{sev[0]}{'' if c is None else f'{c:.2f}'}" for name, sev, c in rk[:n]) or "(nothing)"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-j", type=int, default=2, help="runs at once (default 2; at most 2 on this machine)")
    ap.add_argument("--only", default="")
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--no-confirm", action="store_true", help="skip the traindoc confirm pass")
    ap.add_argument("--confirm-fixed", action="store_true", help="also confirm seed 0 of every fixed program")
    ap.add_argument("--confirm-budget", type=float, default=float("inf"),
                    help="wall seconds after which no new confirm starts (the rest are reported as not run)")
    ap.add_argument("--sets", default="", help="comma-separated sets to score (calibration, held-out, "
                    "'batch 2'; default: all)")
    ap.add_argument("--confirm-halves", default="",
                    help="comma-separated sets to confirm (e.g. 'held-out,batch 2'; default: all)")
    ap.add_argument("--rerun", action="store_true", help="ignore cached runs")
    ap.add_argument("--any-version", action="store_true",
                    help="reuse runs recorded by another traindoc version (diagnose always runs with this one)")
    ap.add_argument("--cache", default=os.environ.get("TRAINDOC_BENCH_CACHE",
                                                      str(Path.home() / ".cache" / "traindoc-bench-real")))
    ap.add_argument("--json", help="write the per-run results here")
    a = ap.parse_args()
    cache = Path(a.cache)
    cache.mkdir(parents=True, exist_ok=True)
    seeds = [s.strip() for s in a.seeds.split(",") if s.strip()]
    progs = [p for p in programs(a.only) if not a.sets or half(p.name) in a.sets.split(",")]
    exp = {p.name: expected(p / "buggy.py") for p in progs}
    jobs = [(p, v, s) for s in seeds for p in progs for v in ("buggy", "fixed")]

    def one(job):
        prog, version, seed = job
        script = prog / f"{version}.py"
        run, info = record(script, seed, cache, a.rerun, a.any_version)
        doc = diagnose(run)
        return {"program": prog.name, "version": version, "seed": seed, "half": half(prog.name),
                "expect": exp[prog.name] if version == "buggy" else "healthy", "run": str(run),
                "cpu_s": round(info["cpu_s"], 1), "rc": info["rc"], "ranked": ranked(doc),
                "rule_errors": rule_errors(doc)}

    t0 = time.time()
    with ThreadPoolExecutor(min(a.j, 2)) as ex:
        results = list(ex.map(one, jobs))
    print(f"recorded and diagnosed {len(results)} runs in {time.time() - t0:.0f} s", file=sys.stderr)

    conf_jobs = [r for r in results if r["seed"] == seeds[0] and not a.no_confirm
                 and (r["version"] == "buggy" or a.confirm_fixed)
                 and (not a.confirm_halves or r["half"] in a.confirm_halves.split(","))]

    conf_jobs.sort(key=lambda r: hashlib.sha256(r["program"].encode()).hexdigest())  # mixes the halves
    t_conf = time.time()

    def conf(r):
        cached = (Path(r["run"]) / "bench-confirm.json").exists() and not a.rerun
        if not cached and time.time() - t_conf > a.confirm_budget:
            return r
        doc = confirm(Path(r["run"]), HERE / r["program"] / f"{r['version']}.py", a.rerun)
        if not doc.get("error"):  # re-ranked by the current rules from the run's confirm.json
            doc = dict(doc, causes=diagnose(Path(r["run"]), experiments=True).get("causes", []))
        r["confirm_ranked"] = ranked(doc)
        r["confirm_experiments"] = experiments(doc)
        r["confirm_error"] = doc.get("error")
        r["confirm_wall_s"] = round(doc.get("bench", {}).get("wall_s", float("nan")), 1)
        return r

    t0 = time.time()
    with ThreadPoolExecutor(1) as ex:  # each confirm already runs its re-executions in parallel
        list(ex.map(conf, conf_jobs))
    n_conf = sum("confirm_ranked" in r for r in conf_jobs)
    if conf_jobs:
        print(f"confirmed {n_conf} of {len(conf_jobs)} runs in {time.time() - t0:.0f} s", file=sys.stderr)

    for r in results:
        names = [n for n, _, _ in r["ranked"]]
        r["error_causes"] = [n for n, sev, _ in r["ranked"] if sev == "error"]
        if r["version"] == "buggy":
            r["ok1"], r["ok3"] = names[:1] == [r["expect"]], r["expect"] in names[:3]
        if "confirm_ranked" in r:
            cn = [n for n, _, _ in r["confirm_ranked"]]
            r["confirm_error_causes"] = [n for n, sev, _ in r["confirm_ranked"] if sev == "error"]
            if r["version"] == "buggy":
                r["cok1"], r["cok3"] = cn[:1] == [r["expect"]], r["expect"] in cn[:3]

    def pct(k, n):
        return f"{k}/{n} = {k / n:.0%}" if n else "-"

    print()
    print(f"{'half':12s} {'progs':>5s} | {'top-1 (3 seeds)':>16s} {'top-3 (3 seeds)':>16s} | "
          f"{'top-1 s0':>12s} {'top-3 s0':>12s} | {'top-1 s0+conf':>13s} {'top-3 s0+conf':>13s} | "
          f"{'false alarms (fixed)':>20s} {'FA +conf':>9s}")
    sets = ["calibration", "held-out"] + sorted({r["half"] for r in results} - {"calibration", "held-out"})
    for name in [*sets, "all"]:
        sel = [r for r in results if name == "all" or r["half"] == name]
        if not sel:
            continue
        bug = [r for r in sel if r["version"] == "buggy"]
        b0 = [r for r in bug if r["seed"] == seeds[0]]
        bc = [r for r in b0 if "cok1" in r]
        fix = [r for r in sel if r["version"] == "fixed"]
        fc = [r for r in fix if "confirm_ranked" in r]
        n_prog = len({r["program"] for r in sel})
        print(f"{name:12s} {n_prog:5d} | {pct(sum(r['ok1'] for r in bug), len(bug)):>16s} "
              f"{pct(sum(r['ok3'] for r in bug), len(bug)):>16s} | "
              f"{pct(sum(r['ok1'] for r in b0), len(b0)):>12s} {pct(sum(r['ok3'] for r in b0), len(b0)):>12s} | "
              f"{pct(sum(r['cok1'] for r in bc), len(bc)):>13s} {pct(sum(r['cok3'] for r in bc), len(bc)):>13s} | "
              f"{pct(sum(bool(r['error_causes']) for r in fix), len(fix)):>20s} "
              f"{pct(sum(bool(r['confirm_error_causes']) for r in fc), len(fc)) if fc else '-':>9s}")

    print("\nper program, seed 0 (expected | diagnose top-3 | confirm top-3; ok = top-1, top3, MISS):")
    for r in sorted((r for r in results if r["version"] == "buggy" and r["seed"] == seeds[0]), key=lambda r: r["program"]):
        m1 = "ok  " if r["ok1"] else ("top3" if r["ok3"] else "MISS")
        m2 = "" if "cok1" not in r else ("ok  " if r["cok1"] else ("top3" if r["cok3"] else "MISS"))
        seeds_ok = sum(x["ok1"] for x in results if x["program"] == r["program"] and x["version"] == "buggy")
        print(f"  {r['program']:36s} {r['half'][:5]:5s} expect {r['expect']:20s} | {m1} {seeds_ok}/{len(seeds)} "
              f"{fmt(r['ranked'])} | {m2} {fmt(r.get('confirm_ranked', []))}"
              + (f" [confirm: {r['confirm_error']}]" if r.get("confirm_error") else ""))
    fa = [r for r in results if r["version"] == "fixed" and (r["error_causes"] or r.get("confirm_error_causes"))]
    if fa:
        print("\nfalse alarms on fixed versions (causes of severity error):")
        for r in fa:
            print(f"  {r['program']:36s} seed {r['seed']}: {', '.join(r['error_causes']) or '-'}"
                  + (f" | +confirm: {', '.join(r['confirm_error_causes']) or '-'}" if "confirm_error_causes" in r else ""))
    crashed = [r for r in results if r.get("rule_errors")]
    if crashed:
        print(f"\nrules that raised while diagnosing ({len(crashed)} runs):")
        for r in crashed:
            print(f"  {r['program']:36s} {r['version']}: {'; '.join(m[:120] for m in r['rule_errors'])}")
    cpus = sorted(r["cpu_s"] for r in results)
    print(f"\nper run under traindoc run: CPU median {cpus[len(cpus) // 2]:.1f} s, max {cpus[-1]:.1f} s; "
          f"traindoc code {code_hash()}; halves by sha256(folder name)[0] parity")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

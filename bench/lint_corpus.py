"""traindoc lint vs TorchFix on one labelled corpus: which pitfalls each flags, its false
positives, and traindoc's speed.

Corpus: the rule fixtures (tests/lint/fixtures/rules, labels in the .txt next to each),
the clean fixtures (tests/lint/fixtures/clean, no label: any finding is a false positive)
and the training scripts of bench/lint_corpus (labels: trailing `# expect: NAME`
comments). A finding counts as a hit when a labelled pitfall of that name sits on its
line; any other finding of a pitfall name is a false positive. TorchFix's rules are
mapped onto the pitfall names where one means the same thing (TOR401: DataLoader with
synchronous loading -> dataloader-blocking); its other rules (deprecated APIs,
torch.load without weights_only, ...) are about other things and are counted apart.

Speed: traindoc on a folder of --copies files (the corpus repeated), in-process with
one and two processes and through the CLI (process start included), rounds interleaved,
medians quoted; "per CPU-second" divides by the process's CPU time, which is what an
idle machine would see. TorchFix runs on the corpus itself (one job). Last, traindoc on
the installed torch package's own source (big library files, not training code): the
speed on a large real tree and the findings there, which are read by hand.

    OMP_WAIT_POLICY=PASSIVE python bench/lint_corpus.py [--rounds 3] [--copies 2000]

TorchFix is not a dependency of traindoc: `pip install torchfix` to compare (without it
the TorchFix columns say "not installed").
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from traindoc.lint import lint_paths  # noqa: E402
from traindoc.lint.registry import load_all  # noqa: E402

FIXTURES = ROOT / "tests" / "lint" / "fixtures"
CORPUS = ROOT / "bench" / "lint_corpus"
EXPECT = re.compile(r"#\s*expect:\s*([a-z0-9-]+(?:\s*,\s*[a-z0-9-]+)*)")
TORCHFIX_MAP = {"TOR401": "dataloader-blocking"}  # TorchFix code -> pitfall it means
TF_LINE = re.compile(r"^(.+?):(\d+):(\d+): (TOR\d+) ")


def corpus() -> tuple[list[Path], set[tuple[str, int, str]]]:
    """Files and labels {(file, line, name)}."""
    files: list[Path] = []
    labels: set[tuple[str, int, str]] = set()
    for py in sorted((FIXTURES / "rules").glob("*.py")):
        files.append(py)
        for ln in py.with_suffix(".txt").read_text().splitlines():
            if ln.strip():
                loc, name = ln.split()
                labels.add((str(py), int(loc.split(":")[0]), name))
    files += sorted((FIXTURES / "clean").glob("*.py"))
    for py in sorted(CORPUS.glob("*.py")):
        files.append(py)
        for i, line in enumerate(py.read_text().splitlines(), 1):
            m = EXPECT.search(line)
            if m:
                labels.update((str(py), i, n.strip()) for n in m.group(1).split(","))
    return files, labels


def run_traindoc(files: list[Path]) -> tuple[list[tuple[str, int, str]], float]:
    t0 = time.perf_counter()
    res = lint_paths([str(f) for f in files], jobs=1)
    dt = time.perf_counter() - t0
    return [(f.location["file"], f.location["line"], f.name) for f in res.findings], dt


def run_torchfix(files: list[Path]) -> tuple[list[tuple[str, int, str]], float] | None:
    exe = shutil.which("torchfix") or (str(Path(sys.executable).parent / "torchfix")
                                       if (Path(sys.executable).parent / "torchfix").exists() else None)
    if exe is None:
        return None
    t0 = time.perf_counter()
    p = subprocess.run([exe, "--select", "ALL", "-j", "1", *map(str, files)], capture_output=True, text=True)
    dt = time.perf_counter() - t0
    out = []
    for line in (p.stdout + p.stderr).splitlines():
        m = TF_LINE.match(line)
        if m:
            out.append((str(Path(m.group(1)).resolve()), int(m.group(2)), m.group(4)))
    return out, dt


def score(findings, labels, names):
    """per pitfall: (hits, labelled, false positives); plus counts of findings outside the pitfalls."""
    labelled = Counter(n for _, _, n in labels)
    hits: Counter = Counter()
    fps: Counter = Counter()
    fp_where: list[str] = []
    other: Counter = Counter()
    seen = set()
    for file, line, name in findings:
        if name not in names:
            other[name] += 1
            continue
        key = (file, line, name)
        if key in labels:
            if key not in seen:
                hits[name] += 1
                seen.add(key)
        else:
            fps[name] += 1
            fp_where.append(f"{Path(file).relative_to(ROOT)}:{line} {name}")
    missed = sorted(f"{Path(f).relative_to(ROOT)}:{ln} {n}" for f, ln, n in labels - seen)
    return {n: (hits[n], labelled[n], fps[n]) for n in names}, other, fp_where, missed


def cli_speed(folder: Path, n_files: int) -> float:
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "traindoc", "lint", str(folder), "--json"],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    dt = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        raise SystemExit(f"traindoc lint failed: {p.stderr.strip()}")
    return n_files / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--copies", type=int, default=2000, help="files in the end-to-end CLI speed run")
    a = ap.parse_args()
    files, labels = corpus()
    files = [f.resolve() for f in files]
    labels = {(str(Path(f).resolve()), ln, n) for f, ln, n in labels}
    names = [*load_all(), "unparsable-file"]

    tf_times = []
    td, _ = run_traindoc(files)
    tf = None
    for _ in range(a.rounds):
        got = run_torchfix(files)
        if got is not None:
            tf, dt2 = got
            tf_times.append(dt2)
    td_score, td_other, td_fp, td_missed = score(td, labels, names)
    tf_mapped = [(f, ln, TORCHFIX_MAP.get(c, c)) for f, ln, c in tf] if tf is not None else None
    tf_score, tf_other, tf_fp, _ = score(tf_mapped, labels, names) if tf_mapped is not None else (None, None, [], [])

    n_clean = len(list((FIXTURES / "clean").glob("*.py")))
    print(f"corpus: {len(files)} files ({len(list((FIXTURES / 'rules').glob('*.py')))} rule fixtures, "
          f"{n_clean} clean fixtures, {len(list(CORPUS.glob('*.py')))} training scripts), {len(labels)} labelled pitfalls\n")
    w = max(map(len, names)) + 2
    print(f"| {'pitfall'.ljust(w)} | traindoc found | traindoc false pos. | TorchFix found | TorchFix false pos. |")
    print(f"|{'-' * (w + 2)}|---------------:|--------------------:|---------------:|--------------------:|")
    tot = Counter()
    for n in names:
        h, lab, fp = td_score[n]
        tot.update(h=h, lab=lab, fp=fp)
        if tf_score is not None:
            th, _, tfp = tf_score[n]
            tot.update(th=th, tfp=tfp)
            tfc = f"{th}/{lab}", str(tfp)
        else:
            tfc = "not installed", "-"
        print(f"| {n.ljust(w)} | {f'{h}/{lab}':>14} | {fp:>19} | {tfc[0]:>14} | {tfc[1]:>19} |")
    tfc = (f"{tot['th']}/{tot['lab']}", str(tot["tfp"])) if tf_score is not None else ("-", "-")
    found = f"{tot['h']}/{tot['lab']}"
    print(f"| {'**total**'.ljust(w)} | {found:>14} | {tot['fp']:>19} | {tfc[0]:>14} | {tfc[1]:>19} |")
    if tf_other:
        print(f"\nTorchFix findings outside these pitfalls: "
              + ", ".join(f"{c} x{k}" for c, k in sorted(tf_other.items())))
    if td_fp:
        print("traindoc false positives: " + "; ".join(td_fp))
    if tf_fp:
        print("TorchFix false positives (by the labels): " + "; ".join(tf_fp))
    if td_missed:
        print("traindoc misses: " + "; ".join(td_missed))

    # speed: traindoc on --copies files (the corpus repeated), interleaved rounds
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        for i in range(a.copies):
            src = files[i % len(files)]
            shutil.copyfile(src, t / f"f{i:05d}_{src.name}")
        one, one_cpu, two, cli, parse_cpu = [], [], [], [], []
        sources = [p.read_bytes() for p in sorted(t.iterdir())]
        for _ in range(a.rounds):
            c0 = time.process_time()
            for src in sources:  # the ceiling: Python's own parser on the same files
                try:
                    ast.parse(src)
                except SyntaxError:
                    pass
            parse_cpu.append(a.copies / (time.process_time() - c0))
            w0, c0 = time.perf_counter(), time.process_time()
            lint_paths([str(t)], jobs=1)
            one.append(a.copies / (time.perf_counter() - w0))
            one_cpu.append(a.copies / (time.process_time() - c0))
            w0 = time.perf_counter()
            lint_paths([str(t)], jobs=2)
            two.append(a.copies / (time.perf_counter() - w0))
            cli.append(cli_speed(t, a.copies))
    med = statistics.median
    print(f"\nspeed, files/s (median of {a.rounds} interleaved rounds; {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at the end):")
    print(f"| tool | files | files/s |")
    print(f"|---|---:|---:|")
    print(f"| traindoc lint, in-process, 1 process (wall) | {a.copies} | {med(one):,.0f} |")
    print(f"| traindoc lint, in-process, 1 process (per CPU-second) | {a.copies} | {med(one_cpu):,.0f} |")
    print(f"| (Python's ast.parse alone, per CPU-second: the ceiling) | {a.copies} | {med(parse_cpu):,.0f} |")
    print(f"| traindoc lint, in-process, 2 processes (wall) | {a.copies} | {med(two):,.0f} |")
    print(f"| traindoc lint CLI end to end (start-up included) | {a.copies} | {med(cli):,.0f} |")
    if tf_times:
        print(f"| TorchFix CLI, -j 1 (start-up included, {med(tf_times):.1f} s) | {len(files)} | "
              f"{len(files) / med(tf_times):,.1f} |")
    import torch

    tdir = Path(torch.__file__).parent
    w0 = time.perf_counter()
    res = lint_paths([str(tdir)], jobs=2)
    dt = time.perf_counter() - w0
    print(f"| traindoc lint on torch {torch.__version__}'s own source, 2 processes | {res.files} | {res.files / dt:,.0f} |")
    lib = Counter(f.name for f in res.findings if "/testing/" not in f.location["file"])
    tst = Counter(f.name for f in res.findings if "/testing/" in f.location["file"])
    print("\nfindings in torch's source (library code, not training scripts: every one is worth reading):\n"
          f"  outside torch/testing: {', '.join(f'{n} x{k}' for n, k in lib.most_common()) or 'none'}\n"
          f"  in torch/testing:      {', '.join(f'{n} x{k}' for n, k in tst.most_common()) or 'none'}")


if __name__ == "__main__":
    main()

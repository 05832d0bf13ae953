"""traindoc lint's recall on pitfalls people really wrote: bench/lint_recall/.

Each file there reproduces, in new words, one training-code pitfall from a public fix
commit, issue thread or Q&A post (the link is in its header). The pitfall line carries a
trailing ``# expect: RULE`` comment (the convention of bench/lint_corpus). A finding is a
hit when a labelled pitfall of that rule sits on its line; a finding on any other line
counts as a false positive of its rule. Labels may name rules that do not exist yet:
they count as missed, and the table says "no such rule".

Corpora: bench/lint_recall/ (65 files, read on 2026-12-02 to widen the rules: now
in-sample), bench/lint_recall_2/ to _11/ (each written by someone who had not read the rules,
scored once before its files were read, then read: see docs/lint-benchmarks.md), and
bench/lint_recall_12/ (scored once, unread: the next clean measure). Findings also cite
lines as evidence (the softmax a cross_entropy receives): a label on such a line is counted
apart, never in the headline. Do not copy these files into
tests, fixtures or bench/lint_corpus.

    OMP_WAIT_POLICY=PASSIVE python bench/lint_recall.py [--folder bench/lint_recall_2] [--misses] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "bench" / "lint_recall"
EXPECT = re.compile(r"#\s*expect:\s*([a-z0-9-]+(?:\s*,\s*[a-z0-9-]+)*)")
SOURCE = re.compile(r"^#\s*Source:\s*(\S+)", re.MULTILINE)


def _readme_sources(folder: Path) -> dict[str, str]:
    """File name -> the first link on its row of the folder's README table (``| 01_x.py | rule |
    https://... |``), for corpora that keep the sources there rather than in a ``# Source:`` line."""
    readme = folder / "README.md"
    out: dict[str, str] = {}
    if readme.exists():
        for row in readme.read_text().splitlines():
            cells = [c.strip().strip("`") for c in row.split("|")]
            if len(cells) > 3 and cells[1].endswith(".py"):
                link = re.search(r"https?://[^\s)|>\"']+", row)
                if link:
                    out.setdefault(cells[1], link.group(0).rstrip(".,;:"))
    return out


def labels(folder: Path = CORPUS) -> tuple[list[Path], set[tuple[str, int, str]], dict[str, str]]:
    """Files, labels {(file, line, rule)} and each file's source link."""
    files = sorted(folder.glob("*.py"))
    out: set[tuple[str, int, str]] = set()
    sources: dict[str, str] = {}
    table = _readme_sources(folder)  # later corpora list their sources in the README's files table
    for py in files:
        text = py.read_text()
        m = SOURCE.search(text)
        if m or py.name in table:
            sources[str(py)] = m.group(1) if m else table[py.name]
        for i, line in enumerate(text.splitlines(), 1):
            m = EXPECT.search(line)
            if m:
                out.update((str(py), i, n.strip()) for n in m.group(1).split(","))
    return files, out, sources


def score(findings: list[tuple[str, int, str]], labelled: set[tuple[str, int, str]]):
    """-> (per labelled rule: (hits, labelled)), false positives [(file, line, rule)], misses."""
    seen = set()
    fps = []
    for f in findings:
        if f in labelled:
            seen.add(f)
        else:
            fps.append(f)
    per = {}
    for rule, n in Counter(r for _, _, r in labelled).items():
        per[rule] = (sum(1 for x in seen if x[2] == rule), n)
    misses = sorted(labelled - seen)
    return per, fps, misses


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--misses", action="store_true", help="list every missed pitfall and false positive")
    ap.add_argument("--json", type=Path, help="write the per-rule table and the misses here")
    ap.add_argument("--folder", type=Path, default=CORPUS)
    a = ap.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from traindoc.lint import lint_paths
    from traindoc.lint.registry import load_all

    rules = set(load_all())
    files, labelled, sources = labels(a.folder)
    if not files:
        print(f"lint_recall: no *.py under {a.folder}", file=sys.stderr)
        return 2
    res = lint_paths([str(f) for f in files], jobs=1)
    findings = [(f.location["file"], f.location["line"], f.name) for f in res.findings]
    # the other lines a finding cites as evidence (the softmax a cross_entropy receives, the
    # backward of a loop that never clears): the user sees them with the finding
    cited = {(f.location["file"], e["line"], f.name) for f in res.findings for e in f.evidence[1:] if "line" in e}
    per, fps, misses = score(findings, labelled)
    fp_by_rule = Counter(r for _, _, r in fps)

    hits = sum(h for h, _ in per.values())
    total = sum(n for _, n in per.values())
    covered = sum(n for r, (_, n) in per.items() if r in rules)
    covered_hits = sum(h for r, (h, _) in per.items() if r in rules)
    print(f"recall corpus: {len(files)} files, {len(set(sources.values()))} sources, {total} labelled pitfall lines; "
          f"{len(rules)} rules\n")
    w = max([len(r) for r in [*per, *fp_by_rule]] + [4]) + 2
    print(f"| {'rule'.ljust(w)} | found / labelled | recall | false pos. | note |")
    print(f"|{'-' * (w + 2)}|-----------------:|-------:|-----------:|------|")
    for rule in sorted(set(per) | set(fp_by_rule)):
        h, n = per.get(rule, (0, 0))
        rec = f"{h / n:.0%}" if n else "-"
        note = "" if rule in rules else "no such rule"
        print(f"| {rule.ljust(w)} | {f'{h}/{n}':>16} | {rec:>6} | {fp_by_rule.get(rule, 0):>10} | {note} |")
    print(f"| {'**total**'.ljust(w)} | {f'{hits}/{total}':>16} | {hits / total:>6.0%} | {len(fps):>10} | |")
    if covered:
        print(f"\nrecall on the pitfalls whose rule exists: {covered_hits}/{covered} = {covered_hits / covered:.0%}; "
              f"overall {hits}/{total} = {hits / total:.0%}")
    # a miss whose rule fired within two lines of the label: the pitfall was seen, the line
    # convention differs (the loop header vs. the forward call, the block vs. the backward)
    near = [x for x in misses if any(f == x[0] and r == x[2] and abs(ln - x[1]) <= 2 for f, ln, r in fps)]
    if near:
        print(f"seen on a line next to the label (within 2 lines, same rule): {len(near)} more; "
              f"{hits + len(near)}/{total} = {(hits + len(near)) / total:.0%} with them")
    on_cited = [x for x in misses if x in cited]
    if on_cited:
        print(f"on a line a finding of that rule cites as evidence: {len(on_cited)} more; "
              f"{hits + len(on_cited)}/{total} = {(hits + len(on_cited)) / total:.0%} with them")
    if a.misses:
        def rel(p):
            return str(Path(p).relative_to(ROOT)) if Path(p).is_relative_to(ROOT) else p
        if misses:
            print("\nmissed:")
            for f, ln, r in misses:
                print(f"  {rel(f)}:{ln} {r}{'' if r in rules else '  (no such rule)'}")
        if fps:
            print("\nfalse positives (a finding on an unlabelled line):")
            for f, ln, r in sorted(fps):
                print(f"  {rel(f)}:{ln} {r}")
    if a.json:
        a.json.write_text(json.dumps({
            "files": len(files), "labelled": total, "found": hits, "rules": len(rules),
            "per_rule": {r: {"found": h, "labelled": n, "exists": r in rules} for r, (h, n) in per.items()},
            "false_positives": [list(x) for x in sorted(fps)], "missed": [list(x) for x in misses],
            "near": [list(x) for x in near], "cited": [list(x) for x in on_cited],
        }, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

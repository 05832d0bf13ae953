"""traindoc lint on training code nobody here wrote: findings per rule, precision from
hand-kept verdicts, and files per CPU-second.

Corpus: ``bench/lint_real/manifest.json`` pins public repositories by commit and lists
the training files taken from each (files that call ``backward()``, step an optimizer or
build a Trainer). Nothing is committed: the files are read at benchmark time from a git
mirror of each repository and written to a cache folder, ``repo@commit/path``.

Where the mirrors come from, first match wins:
  1. ``$TRAINDOC_MIRRORS/owner+name/repo`` (default ``/work/.mirror``): bare mirrors
     (``fetch github:owner/name`` makes one);
  2. ``CACHE/git/owner+name.git``: a bare clone this script made with ``--clone`` (needs
     network: ``git clone --bare https://github.com/owner/name``).
A repository or commit found in neither is named, with the line that fetches it, and
the script exits 2.

Verdicts: ``bench/lint_real/verdicts.json`` maps ``owner/name@commit:path:line:rule`` to
``{"verdict": "tp" | "fp", "reason": "...", "code": "<the line>"}``. They survive reruns
(the files are pinned, so a finding keeps its key); a finding without one is printed as
unreviewed, and a verdict whose finding no longer fires is counted as stale (the rule
changed). Precision per rule = TP / (TP + FP) over reviewed findings.

    OMP_WAIT_POLICY=PASSIVE python bench/lint_real.py                # table + unreviewed findings
    OMP_WAIT_POLICY=PASSIVE python bench/lint_real.py --clone        # clone what is missing (network)
    python bench/lint_real.py --unreviewed out.json                  # unreviewed findings, for review
    python bench/lint_real.py --mark KEY tp "reason"                 # record one verdict
    python bench/lint_real.py --select                                # rebuild the manifest from the mirrors

Exit status: 0, or 2 when a repository or commit is missing (or a bad manifest).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "bench" / "lint_real"
MANIFEST = HERE / "manifest.json"
VERDICTS = HERE / "verdicts.json"
MIRRORS = Path(os.environ.get("TRAINDOC_MIRRORS", "/work/.mirror"))
CACHE = Path(os.environ.get("TRAINDOC_BENCH_CACHE", Path.home() / ".cache" / "traindoc" / "lint_real"))
VERDICT_VALUES = ("tp", "fp")
REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")
SHA_RE = re.compile(r"^[0-9a-f]{40}$")


class BenchError(Exception):
    """Something the user must do (fetch a repo, fix the manifest): one message, exit 2."""


# ---------------------------------------------------------------- manifest and verdicts


def load_manifest(path: Path = MANIFEST) -> list[dict]:
    """The manifest's entries, checked: ``[{"repo", "commit", "paths": [...]}, ...]``."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise BenchError(f"{path}: cannot read the manifest: {exc}") from None
    entries = data.get("repos") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise BenchError(f"{path}: expected {{\"repos\": [...]}}")
    seen = set()
    for i, e in enumerate(entries):
        if not isinstance(e, dict):
            raise BenchError(f"{path}: entry {i} is not an object")
        repo, commit, paths = e.get("repo"), e.get("commit"), e.get("paths")
        if not isinstance(repo, str) or not REPO_RE.match(repo):
            raise BenchError(f"{path}: entry {i}: repo must be owner/name, got {repo!r}")
        if not isinstance(commit, str) or not SHA_RE.match(commit):
            raise BenchError(f"{path}: {repo}: commit must be a full 40-hex SHA, got {commit!r}")
        if not isinstance(paths, list) or not paths or not all(isinstance(p, str) and p for p in paths):
            raise BenchError(f"{path}: {repo}: paths must be a non-empty list of file paths")
        for p in paths:
            if p.startswith("/") or ".." in Path(p).parts:
                raise BenchError(f"{path}: {repo}: path {p!r} must be relative, inside the repository")
        if (repo, commit) in seen:
            raise BenchError(f"{path}: {repo}@{commit} listed twice")
        seen.add((repo, commit))
    return entries


def finding_key(repo: str, commit: str, path: str, line: int, rule: str) -> str:
    return f"{repo}@{commit}:{path}:{line}:{rule}"


def parse_key(key: str) -> tuple[str, str, str, int, str]:
    """``owner/name@commit:path:line:rule`` -> (repo, commit, path, line, rule)."""
    m = re.match(r"^([^@]+)@([0-9a-f]{40}):(.+):(\d+):([a-z0-9-]+)$", key)
    if not m:
        raise ValueError(f"not a finding key: {key!r}")
    return m.group(1), m.group(2), m.group(3), int(m.group(4)), m.group(5)


def load_verdicts(path: Path = VERDICTS) -> dict[str, dict]:
    if not Path(path).exists():
        return {}
    try:
        data = json.loads(Path(path).read_text())
    except ValueError as exc:
        raise BenchError(f"{path}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BenchError(f"{path}: expected an object keyed by finding")
    for k, v in data.items():
        try:
            parse_key(k)
        except ValueError as exc:
            raise BenchError(f"{path}: {exc}") from None
        if not isinstance(v, dict) or v.get("verdict") not in VERDICT_VALUES or not v.get("reason"):
            raise BenchError(f"{path}: {k}: a verdict is {{\"verdict\": \"tp\"|\"fp\", \"reason\": \"...\"}}")
    return data


def save_verdicts(verdicts: dict[str, dict], path: Path = VERDICTS) -> None:
    tmp = Path(str(path) + ".tmp")
    tmp.write_text(json.dumps(dict(sorted(verdicts.items())), indent=1, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


def precision_table(findings: list[tuple[str, str]], verdicts: dict[str, dict]) -> dict[str, dict]:
    """findings: [(key, rule)] -> {rule: {findings, tp, fp, unreviewed, precision}}."""
    out: dict[str, dict] = defaultdict(lambda: {"findings": 0, "tp": 0, "fp": 0, "unreviewed": 0})
    for key, rule in findings:
        row = out[rule]
        row["findings"] += 1
        v = verdicts.get(key)
        if v is None:
            row["unreviewed"] += 1
        else:
            row[v["verdict"]] += 1
    for row in out.values():
        judged = row["tp"] + row["fp"]
        row["precision"] = row["tp"] / judged if judged else None
    return dict(out)


# ---------------------------------------------------------------- corpus materialisation


def _git_dir(repo: str, cache: Path) -> Path | None:
    name = repo.replace("/", "+")
    for cand in (MIRRORS / name / "repo" / ".git", MIRRORS / name / "repo", cache / "git" / f"{name}.git"):
        if (cand / "HEAD").is_file() and (cand / "objects").is_dir():
            return cand
    return None


def _has_commit(git_dir: Path, commit: str) -> bool:
    p = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "-e", f"{commit}^{{commit}}"],
                       capture_output=True, check=False)
    return p.returncode == 0


def _clone(repo: str, commit: str, cache: Path) -> Path:
    dest = cache / "git" / f"{repo.replace('/', '+')}.git"
    url = f"https://github.com/{repo}"
    if not dest.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
        p = subprocess.run(["git", "clone", "--bare", "--filter=blob:none", "--quiet", url, str(dest)],
                           capture_output=True, text=True, check=False)
        if p.returncode:
            shutil.rmtree(dest, ignore_errors=True)
            raise BenchError(f"{repo}: git clone {url} failed: {p.stderr.strip()}")
    if not _has_commit(dest, commit):
        p = subprocess.run(["git", "--git-dir", str(dest), "fetch", "--quiet", "origin", commit],
                           capture_output=True, text=True, check=False)
        if p.returncode:
            raise BenchError(f"{repo}: cannot fetch commit {commit}: {p.stderr.strip()}")
    return dest


def materialise(entries: list[dict], cache: Path = CACHE, clone: bool = False) -> list[tuple[str, str, str, Path]]:
    """Write every manifest file under ``cache/files/owner+name@commit/path``; return
    [(repo, commit, path, local file)]. Raises BenchError naming every missing repo/commit."""
    missing: list[str] = []
    out: list[tuple[str, str, str, Path]] = []
    for e in entries:
        repo, commit = e["repo"], e["commit"]
        base = cache / "files" / f"{repo.replace('/', '+')}@{commit}"
        done = base / ".complete"
        if done.exists():
            out.extend((repo, commit, p, base / p) for p in e["paths"])
            continue
        git_dir = _git_dir(repo, cache)
        if git_dir is not None and not _has_commit(git_dir, commit):
            git_dir = None if not clone else git_dir
        if git_dir is None and clone:
            git_dir = _clone(repo, commit, cache)
        if git_dir is None or not _has_commit(git_dir, commit):
            missing.append(f"  {repo}@{commit[:12]}: fetch github:{repo}   "
                           f"(or, with network: python bench/lint_real.py --clone)")
            continue
        # one git process for all the files of a repo: cat-file --batch
        specs = "".join(f"{commit}:{p}\n" for p in e["paths"])
        p = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
                           input=specs.encode(), capture_output=True, check=False)
        if p.returncode:
            raise BenchError(f"{repo}: git cat-file failed: {p.stderr.decode(errors='replace').strip()}")
        buf, pos = p.stdout, 0
        for path in e["paths"]:
            nl = buf.index(b"\n", pos)
            header = buf[pos:nl].decode(errors="replace")
            pos = nl + 1
            if header.endswith(" missing"):
                raise BenchError(f"{repo}@{commit[:12]}: {path} is not in that commit (fix the manifest)")
            size = int(header.split()[2])
            data = buf[pos:pos + size]
            pos += size + 1
            dest = base / path
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
            out.append((repo, commit, path, dest))
        done.write_text("")
    if missing:
        raise BenchError("missing repositories or commits (looked in "
                         f"{MIRRORS} and {cache / 'git'}):\n" + "\n".join(missing))
    return out


# ---------------------------------------------------------------- selection (maintainer tool)

TRAINING = re.compile(rb"\.backward\(|optimizer\.step\(|opt\.step\(|optim\.step\(|\.step\(\)|Trainer\(|\.fit\(")
TORCH = re.compile(rb"\bimport torch\b|\bfrom torch\b|\bimport lightning\b|\bpytorch_lightning\b|\baccelerate\b")
SKIP = re.compile(r"(^|/)(tests?|testing|docs?|benchmarks?)/|(^|/)(test_|conftest)|setup\.py$|__init__\.py$")


def select(entries_in: list[str], per_repo: int) -> dict:
    """Build a manifest from the mirrors: for each ``owner/name[:prefix,prefix]`` (at the
    mirror's HEAD; under the prefixes when given), the Python files that train something
    (see TRAINING and TORCH), outside tests/docs."""
    repos = []
    for spec in entries_in:
        repo, _, prefixes = spec.partition(":")
        git_dir = _git_dir(repo, CACHE)
        if git_dir is None:
            raise BenchError(f"{repo}: no mirror; fetch github:{repo}")
        head = subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        names = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", "--name-only", head],
                               capture_output=True, check=True).stdout.decode().split("\0")
        names = [n for n in names if n.endswith(".py") and not SKIP.search(n)
                 and (not prefixes or n.startswith(tuple(prefixes.split(","))))]
        specs = "".join(f"{head}:{n}\n" for n in names).encode()
        buf = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "--batch"], input=specs,
                             capture_output=True, check=True).stdout
        pos, keep = 0, []
        for n in names:
            nl = buf.index(b"\n", pos)
            size = int(buf[pos:nl].split()[2])
            data = buf[nl + 1: nl + 1 + size]
            pos = nl + 1 + size + 1
            if size < (1 << 20) and TRAINING.search(data) and TORCH.search(data):
                keep.append(n)
        if per_repo and len(keep) > per_repo:  # evenly spread, deterministic
            step = len(keep) / per_repo
            keep = [keep[int(i * step)] for i in range(per_repo)]
        if keep:
            repos.append({"repo": repo, "commit": head, "select": spec, "paths": keep})
        print(f"{repo}@{head[:12]}: {len(keep)} files", file=sys.stderr)
    return {"about": "traindoc lint real-code corpus: training files of public repositories, pinned by commit; "
                     "built by `python bench/lint_real.py --select`, read by bench/lint_real.py",
            "repos": repos}


# ---------------------------------------------------------------- run


def run_lint(files: list[tuple[str, str, str, Path]], rounds: int) -> tuple[list, float, int, float, int]:
    """Lint every file (one process); returns findings, the best files/CPU-second, the rule
    count, the ceiling (Python's own parser on the same files, files/CPU-second) and the
    line count. Loaded here so that --mark and --select work while the rules are edited."""
    import ast
    sys.path.insert(0, str(ROOT))
    from traindoc.lint import lint_paths
    from traindoc.lint.registry import load_all

    n_rules = len(load_all())
    paths = [str(f) for *_, f in files]
    sources = [Path(p).read_bytes() for p in paths]
    lines = sum(s.count(b"\n") for s in sources)
    ceiling = 0.0
    best = 0.0
    res = None
    for _ in range(max(1, rounds)):
        c0 = time.process_time()
        for src in sources:
            try:
                ast.parse(src)
            except (SyntaxError, ValueError):
                pass
        cpu = time.process_time() - c0
        ceiling = max(ceiling, len(paths) / cpu if cpu > 0 else float("inf"))
        c0 = time.process_time()
        res = lint_paths(paths, jobs=1)
        cpu = time.process_time() - c0
        best = max(best, len(paths) / cpu if cpu > 0 else float("inf"))
    return res.findings, best, n_rules, ceiling, lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    ap.add_argument("--verdicts", type=Path, default=VERDICTS)
    ap.add_argument("--cache", type=Path, default=CACHE)
    ap.add_argument("--clone", action="store_true", help="git clone what no mirror has (network)")
    ap.add_argument("--rounds", type=int, default=3, help="timed lint passes (best is quoted)")
    ap.add_argument("--unreviewed", type=Path, help="write the unreviewed findings here as JSON")
    ap.add_argument("--json", type=Path, help="write every finding with its verdict here as JSON")
    ap.add_argument("--all", action="store_true", help="list every finding, not only unreviewed ones")
    ap.add_argument("--mark", nargs=3, metavar=("KEY", "VERDICT", "REASON"), help="record one verdict")
    ap.add_argument("--select", nargs="*", metavar="OWNER/NAME[:PREFIX,...]",
                    help="rebuild the manifest from the mirrors' HEAD (the repos listed, or the manifest's)")
    ap.add_argument("--per-repo", type=int, default=60, help="with --select: at most this many files a repo")
    a = ap.parse_args(argv)
    try:
        return _main(a)
    except BenchError as exc:
        print(f"lint_real: {exc}", file=sys.stderr)
        return 2


def _main(a) -> int:
    if a.mark:
        key, verdict, reason = a.mark
        parse_key(key)
        if verdict not in VERDICT_VALUES:
            raise BenchError(f"verdict must be one of {VERDICT_VALUES}")
        verdicts = load_verdicts(a.verdicts)
        verdicts[key] = {"verdict": verdict, "reason": reason, **({"code": verdicts[key]["code"]}
                                                                    if key in verdicts and "code" in verdicts[key] else {})}
        save_verdicts(verdicts, a.verdicts)
        return 0
    if a.select is not None:
        repos = a.select or [e.get("select", e["repo"]) for e in load_manifest(a.manifest)]
        a.manifest.write_text(json.dumps(select(repos, a.per_repo), indent=1) + "\n")
        return 0

    entries = load_manifest(a.manifest)
    verdicts = load_verdicts(a.verdicts)
    files = materialise(entries, a.cache, clone=a.clone)
    by_local = {str(f): (repo, commit, path) for repo, commit, path, f in files}
    findings, speed, n_rules, ceiling, n_lines = run_lint(files, a.rounds)

    rows = []  # (key, rule, finding)
    for f in findings:
        repo, commit, path = by_local[f.location["file"]]
        rows.append((finding_key(repo, commit, path, f.location["line"], f.name), f.name, f))
    keys = {k for k, _, _ in rows}
    table = precision_table([(k, r) for k, r, _ in rows], verdicts)
    stale = sorted(k for k in verdicts if k not in keys)

    n_repos = len({e["repo"] for e in entries})
    print(f"corpus: {len(files)} files ({n_lines:,} lines) from {n_repos} repositories at {len(entries)} pinned "
          f"commits; {n_rules} rules; {len(findings)} findings")
    print(f"speed: {speed:,.0f} files per CPU-second ({speed * n_lines / len(files):,.0f} lines), one process, "
          f"best of {max(1, a.rounds)}; Python's ast.parse alone on the same files: {ceiling:,.0f} files "
          f"per CPU-second\n")
    w = max([len(r) for r in table] + [len("rule")]) + 2
    print(f"| {'rule'.ljust(w)} | findings |   TP |   FP | unreviewed | precision |")
    print(f"|{'-' * (w + 2)}|---------:|-----:|-----:|-----------:|----------:|")
    tot = Counter()
    for rule in sorted(table):
        r = table[rule]
        tot.update({k: r[k] for k in ("findings", "tp", "fp", "unreviewed")})
        prec = f"{r['precision']:.0%}" if r["precision"] is not None else "-"
        print(f"| {rule.ljust(w)} | {r['findings']:>8} | {r['tp']:>4} | {r['fp']:>4} | {r['unreviewed']:>10} | {prec:>9} |")
    judged = tot["tp"] + tot["fp"]
    prec = f"{tot['tp'] / judged:.0%}" if judged else "-"
    print(f"| {'**total**'.ljust(w)} | {tot['findings']:>8} | {tot['tp']:>4} | {tot['fp']:>4} "
          f"| {tot['unreviewed']:>10} | {prec:>9} |")
    if stale:
        print(f"\n{len(stale)} verdicts for findings that no longer fire (rule changed or removed):")
        for k in stale:
            print(f"  stale {verdicts[k]['verdict']}: {k}")

    listed = [(k, r, f) for k, r, f in rows if a.all or k not in verdicts]
    if listed:
        print(f"\n{'findings' if a.all else 'unreviewed findings'}:")
        for k, r, f in sorted(listed, key=lambda x: x[0]):
            v = verdicts.get(k)
            tag = f"{v['verdict']}: {v['reason']}" if v else "unreviewed"
            code = f.evidence[0]["code"] if f.evidence else ""
            print(f"  [{tag}] {k}\n      {code}\n      {f.message}")

    def dump(rows_, path):
        path.write_text(json.dumps([
            {"key": k, "rule": r, "verdict": verdicts.get(k), "message": f.message,
             "code": f.evidence[0]["code"] if f.evidence else "", "local": f.location["file"]}
            for k, r, f in sorted(rows_, key=lambda x: x[0])], indent=1) + "\n")

    if a.unreviewed:
        dump([x for x in rows if x[0] not in verdicts], a.unreviewed)
    if a.json:
        dump(rows, a.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

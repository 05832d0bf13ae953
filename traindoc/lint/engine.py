"""Files in, findings out: collect paths, parse each file once, run the rules that apply.

Speed (the target is >= 1000 files/s): a file is read as bytes, rules whose needles do
not occur in the text are skipped, and a file no rule wants is never parsed. A parsed
file gets one :class:`~traindoc.lint.scope.Walker` pass; rules query kinds lazily. Big
inputs are spread over processes (``jobs``).
"""

from __future__ import annotations

import ast
import gc
import os
import stat
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Iterable

from ..errors import UserError
from ..findings import ERROR, Finding
from ..taxonomy import register
from .kinds import Module
from .registry import KIND, Hit, LintRule, load_all
from .suppress import is_suppressed, suppressions
from .walk import clear as walk_store_clear

PARSE_ERROR = "unparsable-file"
PARSE_ERROR_DOC = """\
What it detects: a file that `traindoc lint` was asked to check but that Python cannot
parse (a syntax error, a null byte, an undecodable encoding, an expression nested too
deeply for the parser or the checker, such as a generated 3000-term sum), or a file found
in a folder that cannot be read (a dangling symlink, no permission, a FIFO).

Why it happens: it does not, by itself; but none of the other rules could look
at that file, so a clean report would be a false assurance. The finding has severity
error so that a CI gate fails instead of passing silently.

Example:
    def f(:                 # -> train.py:1:7 unparsable-file cannot parse: invalid syntax
    x = a0 + a1 + ... + a2999  # -> gen.py:1:1 unparsable-file cannot parse: too deeply nested ...

How to fix: fix the syntax error, split the generated expression (`sum([...])`), make the
file readable, or leave the file out of the paths given to lint.

How to confirm: `python -m py_compile FILE` shows the syntax error; `ls -l FILE` a
permission or a dangling link.
"""
PARSE_CODE = "TD500"
register(PARSE_ERROR, PARSE_CODE, "lint", KIND, "a file that could not be read or parsed, so no rule could check it")

# Folders never worth linting (ruff's defaults, plus caches).
SKIP_DIRS = frozenset(
    ".bzr .direnv .eggs .git .git-rewrite .hg .mypy_cache .nox .pants.d .pytype .ruff_cache .svn .tox .venv "
    "__pypackages__ _build buck-out dist node_modules site-packages venv __pycache__ .pytest_cache "
    ".ipynb_checkpoints".split()
)


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    seconds: float = 0.0
    skipped: list[str] = field(default_factory=list)  # "PATH: why" for files given by name, not linted

    @property
    def exit_code(self) -> int:
        return 1 if any(f.severity == ERROR for f in self.findings) else 0


def collect(paths: Iterable[str]) -> list[str]:
    """Files to lint (see :func:`collect_paths`, whose notes on skipped files this drops)."""
    return collect_paths(paths)[0]


def collect_paths(paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """Files to lint and notes on the files skipped: given Python files as they are,
    folders searched for ``*.py`` (sorted). A file given by name that is not Python
    (``README.md``) is skipped with a note rather than reported as a syntax error; Python
    means ``.py``/``.pyw``/``.pyi`` or, without an extension, a ``#!...python`` first line
    (what pre-commit's ``types: [python]`` passes); a notebook (``.ipynb``) given by name
    has its code cells linted.

    A path given explicitly that is missing, not a regular file or unreadable, or a folder
    without any ``*.py`` (outside the skipped folders), raises :class:`UserError` (bad
    input); a file found by walking a folder is read later and, if it cannot be, becomes
    one ``unparsable-file`` finding (see :func:`lint_file`). When every path given was
    skipped, nothing would be checked: that is a :class:`UserError` too.
    """
    out: list[str] = []
    empty: list[str] = []
    skipped: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            n = len(out)
            for root, dirs, files in os.walk(p):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info"))
                for f in sorted(files):
                    if f.endswith(".py"):
                        full = os.path.join(root, f)
                        big = _too_big(full)
                        skipped.append(f"{full}: {big}") if big else out.append(full)
            if len(out) == n:  # a CI gate pointed at the wrong folder must not pass on 0 files
                empty.append(p)
        elif os.path.isfile(p):
            try:  # a permission problem is the user's to fix: one line, exit 2
                os.close(os.open(p, _OPEN_FLAGS))
            except OSError as exc:
                raise UserError(f"{p}: cannot read: {exc.strerror or exc}") from None
            why = _not_python(p) or _too_big(p)
            if why:
                skipped.append(f"{p}: {why}")
            else:
                out.append(p)
        elif os.path.exists(p):  # a FIFO, socket or device: reading it could block forever
            raise UserError(f"{p}: not a regular file")
        else:
            raise UserError(f"{p}: no such file or folder")
    if empty:  # each empty folder is an error, even when other paths have files
        raise UserError("; ".join(f"{p}: no *.py file found" for p in empty))
    if not out and skipped:
        raise UserError("; ".join(skipped) + "; nothing to lint")
    return out, skipped


PY_SUFFIXES = (".py", ".pyw", ".pyi")


MAX_BYTES = 1 << 20  # 1 MiB, ~25 000 lines: a 100 000-line generated file took 1.2 GB and 9 s


def _too_big(path: str) -> str | None:
    """Why a file is too large to lint (its AST would cost hundreds of MB), or None.
    Hand-written training code is far below the limit; generated code is not worth it."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return None  # lint_file reports what is wrong with it
    if size > MAX_BYTES:
        return f"{size / 2**20:.1f} MiB, over lint's {MAX_BYTES >> 20} MiB limit (generated code?)"
    return None


def _not_python(path: str) -> str | None:
    """Why a file given by name is not linted as Python, or None when it is Python."""
    if path.endswith(PY_SUFFIXES):
        return None
    if path.endswith(".ipynb"):
        return None  # its code cells are linted (traindoc.lint.notebook)
    if not os.path.splitext(os.path.basename(path))[1]:
        with open(path, "rb") as fh:  # readable: collect just opened it
            first = fh.readline(256)
        if first.startswith(b"#!") and b"python" in first:
            return None
    return "not a Python file (*.py), skipped"


# O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer
# (it has no effect on a regular file), so fstat can tell the FIFO apart.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
_READ_FIX = "make the file readable or leave it out of the paths; no rule could check it"


def _loc(path: str, node: ast.AST, lines: list[bytes]) -> dict:
    """file, line and col, 1-based and counted in characters as editors and SARIF count
    (the AST counts UTF-8 bytes); "col", not "column", which in a finding's location names
    a data column (traindoc data check)."""
    line = getattr(node, "lineno", 1)
    loc = {"file": path, "line": line, "col": _chars(lines, line, getattr(node, "col_offset", 0)) + 1}
    if getattr(node, "end_lineno", None) is not None:
        loc["end_line"] = node.end_lineno
        loc["end_col"] = _chars(lines, node.end_lineno, node.end_col_offset) + 1
    return loc


def _chars(lines: list[bytes], line: int, byte_offset: int) -> int:
    if 0 < line <= len(lines):
        return len(lines[line - 1][:byte_offset].decode("utf-8", "replace"))
    return byte_offset


def _source_line(lines: list[bytes], line: int) -> str:
    return lines[line - 1].decode("utf-8", "replace").strip() if 0 < line <= len(lines) else ""


def lint_source(source: bytes | str, path: str = "<string>", rules: dict[str, LintRule] | None = None) -> list[Finding]:
    """Findings for one file's source (suppressions applied), ordered by line and column."""
    if isinstance(source, str):
        source = source.encode()
    rules = load_all() if rules is None else rules
    seen: dict[bytes, bool] = {}
    active = [r for r in rules.values() if r.wanted(source, seen)]
    if not active:
        return []
    try:
        tree = ast.parse(source, filename=path)
    except (SyntaxError, ValueError, UnicodeDecodeError) as exc:
        line = getattr(exc, "lineno", None) or 1
        col = getattr(exc, "offset", None) or 1
        msg = getattr(exc, "msg", None) or str(exc)
        return [_unparsable(path, f"cannot parse: {msg}", "fix the syntax error; no other rule could check this file",
                            line, col)]
    except (RecursionError, MemoryError) as exc:  # a generated 3000-term sum, `- - - ... 1`
        return [_too_deep(path, "Python's parser", exc)]
    try:
        return _run_rules(path, source, tree, active)
    except RecursionError as exc:  # parsed, but deeper than the walker and kinds can recurse
        return [_too_deep(path, "the checker", exc)]
    finally:
        walk_store_clear()  # the subtrees' walks are this file's


def _unparsable(path: str, message: str, fix: str, line: int = 1, col: int = 1) -> Finding:
    return Finding(PARSE_ERROR, ERROR, message, location={"file": path, "line": line, "col": col}, fix=fix)


def _too_deep(path: str, who: str, exc: BaseException) -> Finding:
    what = "out of memory" if isinstance(exc, MemoryError) else "recursion limit"
    return _unparsable(path, f"cannot parse: too deeply nested for {who} ({what})",
                       "split the expression (a generated sum, a long chain): no rule could check this file")


def _hits(r: LintRule, mod: Module, path: str) -> list:
    """One rule's hits on the file; a rule that raises (a bug of traindoc's, never the user's)
    loses its findings on this file with a warning, and the other rules still run: a lint
    bug must not stop `traindoc lint` or the code evidence of `traindoc diagnose`."""
    try:
        return list(r.fn(mod))
    except RecursionError:
        raise  # reported as a file too deeply nested for the checker
    except Exception as exc:  # noqa: BLE001
        warnings.warn(f"traindoc lint: rule {r.name} failed on {path} ({type(exc).__name__}: {exc}); "
                      "its findings on this file are missing, the other rules ran", RuntimeWarning, stacklevel=2)
        return []


def _run_rules(path: str, source: bytes, tree: ast.Module, active: list[LintRule]) -> list[Finding]:
    mod = Module(path, source, tree)
    sup = suppressions(source)
    out: list[Finding] = []
    seen: set[tuple] = set()
    lines: list[bytes] | None = None  # split only for a file with findings
    for r in active:
        for h in _hits(r, mod, path):
            if lines is None:
                lines = source.splitlines()
            loc = _loc(path, h.node, lines)
            key = (r.name, loc["line"], loc["col"])
            if key in seen or is_suppressed(sup, loc["line"], r.name, r.code):
                continue
            seen.add(key)
            out.append(Finding(
                name=r.name, severity=h.severity or r.severity, message=h.message, location=loc,
                evidence=[{"file": path, "line": loc["line"], "code": _source_line(lines, loc["line"])},
                          *_related(path, h, lines, loc["line"])],
                fix=h.fix or r.fix, confirm=r.confirm,
            ))
    out.sort(key=lambda f: (f.location["line"], f.location["col"], f.name))
    return out


def _related(path: str, h: Hit, lines: list[bytes], line: int) -> list[dict]:
    """The lines a finding cites besides its own (each once, in the order given)."""
    out: list[dict] = []
    seen = {line}
    for node, what in h.related:
        ln = getattr(node, "lineno", None)
        if ln is None or ln in seen:
            continue
        seen.add(ln)
        out.append({"file": path, "line": ln, "code": _source_line(lines, ln), "note": what})
    return out


def lint_file(path: str, rules: dict[str, LintRule] | None = None) -> list[Finding]:
    """Findings for one file; a file that cannot be read (a dangling symlink, no
    permission, a FIFO found by walking) is one ``unparsable-file`` finding, so that one
    bad file does not abort the run. Costs one fstat, which ``open`` does anyway."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
        with open(fd, "rb") as fh:  # closes fd
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return [_unparsable(path, "cannot read: not a regular file", _READ_FIX)]
            source = fh.read()
    except OSError as exc:
        return [_unparsable(path, f"cannot read: {exc.strerror or exc}", _READ_FIX)]
    if path.endswith(".ipynb"):  # given by name only: folders are searched for *.py
        return _lint_notebook(source, path, rules)
    return lint_source(source, path, rules)


def _lint_notebook(raw: bytes, path: str, rules: dict[str, LintRule] | None) -> list[Finding]:
    from .notebook import code_of, to_cells

    try:
        code, starts, numbers = code_of(raw)
    except ValueError as exc:
        return [_unparsable(path, f"cannot parse: {exc}", "give lint the notebook's .ipynb JSON, or a script")]
    return to_cells(lint_source(code, path, rules), starts, numbers)


def _wanted_names(select: Iterable[str] | None, ignore: Iterable[str] | None) -> set[str]:
    """Rule names (``unparsable-file`` included) that ``select`` / ``ignore`` leave on."""
    rules = load_all()
    by_code = {r.code: n for n, r in rules.items()}
    by_code[PARSE_CODE] = PARSE_ERROR
    known = {*rules, PARSE_ERROR}

    def names(items: Iterable[str]) -> set[str]:
        out = set()
        for it in items:
            n = by_code.get(it, it)
            if n not in known:
                raise UserError(f"{it}: not a lint rule; `traindoc lint --list-rules` lists them")
            out.add(n)
        return out

    keep = names(select) if select else set(known)
    return keep - names(ignore or ())


def select_rules(select: Iterable[str] | None, ignore: Iterable[str] | None) -> dict[str, LintRule]:
    """The rules that ``select`` / ``ignore`` (names or TD5xx codes) leave on; UserError for an unknown one."""
    keep = _wanted_names(select, ignore)
    return {n: r for n, r in load_all().items() if n in keep}


def _chunk(args: tuple) -> list[Finding]:
    paths, names = args
    rules = {n: r for n, r in load_all().items() if n in names}
    out: list[Finding] = []
    gc.disable()  # a worker process: see lint_paths
    for p in paths:
        out.extend(lint_file(p, rules))
    return out


def lint_paths(
    paths: Iterable[str],
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    jobs: int | None = None,
) -> LintResult:
    """Lint files and folders. ``jobs``: processes (None: one per CPU for big inputs)."""
    t0 = time.perf_counter()
    keep = _wanted_names(select, ignore)
    rules = {n: r for n, r in load_all().items() if n in keep}
    files, skipped = collect_paths(paths)
    if jobs is None:
        jobs = min(os.cpu_count() or 1, 8) if len(files) >= 256 else 1
    findings: list[Finding] = []
    if jobs <= 1 or len(files) < 2:
        # The cyclic GC only slows this loop down (~7 %): ASTs and the walker's tables are
        # acyclic and freed by reference counting when each file is done.
        was = gc.isenabled()
        gc.disable()
        try:
            for p in files:
                findings.extend(lint_file(p, rules))
        finally:
            if was:
                gc.enable()
    else:
        n = max(1, len(files) // (jobs * 4))
        chunks = [(files[i : i + n], frozenset(rules)) for i in range(0, len(files), n)]
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            for part in ex.map(_chunk, chunks):
                findings.extend(part)
    if PARSE_ERROR not in keep:
        findings = [f for f in findings if f.name != PARSE_ERROR]
    return LintResult(findings, len(files), time.perf_counter() - t0, skipped)

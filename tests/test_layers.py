"""Layers that only point down: measure -> decide -> present (docs/architecture.md).
A module may import its own layer or a lower one; never a higher one."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "traindoc"

PRESENT = ("traindoc.__init__", "traindoc.report", "traindoc.cli", "traindoc.__main__", "traindoc.integrations", "traindoc.demo",
           "traindoc.data.render", "traindoc.data.html", "traindoc.data.api", "traindoc.lint.output")
DECIDE = ("traindoc.rules", "traindoc.diagnose", "traindoc.explain", "traindoc.forensics.findings",
          "traindoc.forensics.analyze", "traindoc.forensics.locate", "traindoc.forensics.fp16_flush", "traindoc.confirm", "traindoc.data.checks", "traindoc.data.engine",
          "traindoc.lint.rules")
MEASURE_IN_DECIDE = ("traindoc.confirm.hooks",)  # the experiments' global hooks: measurement


def layer(mod: str) -> int:
    if mod == "traindoc":  # the public API (and traindoc.data's): they re-export every layer
        return 2
    if mod.rsplit(".", 1)[-1].startswith("cli") or mod == "traindoc.data" or mod.startswith(PRESENT):
        return 2
    if mod.startswith(MEASURE_IN_DECIDE):
        return 0
    return 1 if mod.startswith(DECIDE) else 0


def imports(path: Path, mod: str):
    pkg = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
    for n in ast.walk(ast.parse(path.read_text())):
        if isinstance(n, ast.ImportFrom):
            base = ".".join(pkg[: len(pkg) - n.level + 1]) if n.level else ""
            target = ".".join(x for x in (base, n.module) if x)
            if n.module is None:  # from .. import sandbox: the module imported is traindoc.sandbox
                for a in n.names:
                    yield n.lineno, f"{target}.{a.name}"
            else:
                yield n.lineno, target
        elif isinstance(n, ast.Import):
            for a in n.names:
                yield n.lineno, a.name


def test_no_upward_import():
    bad = []
    for p in sorted(ROOT.rglob("*.py")):
        mod = ".".join(p.relative_to(ROOT.parent).with_suffix("").parts).removesuffix(".__init__")
        for line, target in imports(p, mod):
            if target.startswith("traindoc") and layer(target) > layer(mod):
                bad.append(f"{mod}:{line} imports {target}")
    assert not bad, "\n".join(bad)


def test_modules_and_functions_stay_readable():
    """Every module under 400 lines, every function at most 60 (its docstring not counted:
    a rule's doc sections live there)."""
    long_mods, long_fns = [], []
    for p in sorted(ROOT.rglob("*.py")):
        src = p.read_text()
        if len(src.splitlines()) >= 400:
            long_mods.append(f"{p.relative_to(ROOT)}: {len(src.splitlines())} lines")
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                b = node.body
                doc = (b[0].end_lineno - b[0].lineno + 1 if b and isinstance(b[0], ast.Expr)
                       and isinstance(b[0].value, ast.Constant) and isinstance(b[0].value.value, str) else 0)
                n = node.end_lineno - node.lineno + 1 - doc
                if n > 60:
                    long_fns.append(f"{p.relative_to(ROOT)}:{node.lineno} {node.name}: {n} lines")
    assert not long_mods and not long_fns, long_mods + long_fns

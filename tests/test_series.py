"""The series schema (traindoc/series.py): a monitored run writes nothing outside it, and
docs/monitor.md's table is generated from it."""

from pathlib import Path

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

import traindoc
from traindoc.series import SCHEMA, lookup, markdown_table

ROOT = Path(__file__).resolve().parents[1]


def test_the_docs_table_is_generated_from_the_schema():
    assert markdown_table() in (ROOT / "docs" / "monitor.md").read_text()


def test_patterns_match_what_they_say():
    assert lookup("loss").name == "loss"
    assert lookup("grad_norm/encoder.layers.0.attn.weight").name == "grad_norm/{param}"
    assert lookup("act/encoder.0/dead").name == "act/{module}/{stat}"
    assert lookup("loss/eval3").name == "loss/eval{k}" and lookup("lr/1/0").name == "lr/{i}/{group}"
    assert lookup("loss_fn/cross_entropy/target_max").name == "loss_fn/{fn}/target_{k}"
    assert lookup("not a series") is None
    assert len({s.name for s in SCHEMA}) == len(SCHEMA)


def test_a_monitored_run_writes_only_schema_series(tmp_path):
    # two optimizers, a scheduler, clipping, gradient accumulation, two evaluation
    # splits, cross-entropy and BCE: most of the monitor's measurements in one loop
    torch.manual_seed(0)
    X, y = torch.randn(256, 8), torch.randint(0, 3, (256,))
    train = DataLoader(TensorDataset(X[:192], y[:192]), batch_size=32, shuffle=True)
    val = DataLoader(TensorDataset(X[192:], y[192:]), batch_size=32)
    test = DataLoader(TensorDataset(X[:32], y[:32]), batch_size=32)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
    aux = nn.Linear(8, 1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    opt2 = torch.optim.SGD(aux.parameters(), lr=1e-2)
    sched = torch.optim.lr_scheduler.StepLR(opt, 5)
    with traindoc.watch(out=tmp_path / "r", replay=False):
        for _ in range(3):
            for i, (x, t) in enumerate(train):
                loss = nn.functional.cross_entropy(model(x), t) / 2
                loss.backward()
                if i % 2:
                    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                    opt.step()
                    opt.zero_grad()
                    sched.step()
                    l2 = nn.functional.binary_cross_entropy_with_logits(aux(x).squeeze(1), (t == 1).float())
                    opt2.zero_grad()
                    l2.backward()
                    opt2.step()
            with torch.no_grad():
                for loader in (val, test):
                    for x, t in loader:
                        nn.functional.cross_entropy(model(x), t)
    names = traindoc.open_run(tmp_path / "r").names()
    assert {"loss", "loss/ce", "loss/eval", "loss/eval1", "grad_norm", "grad_norm_preclip"} <= set(names)
    unknown = [n for n in names if lookup(n) is None]
    assert not unknown, unknown


def _read_names():
    """Every literal series name the deciding and presenting code reads: the arguments of
    ``.series(...)`` / ``.has(...)`` and the series of a rule's ``needs=``."""
    import ast

    out = []
    for sub in ("rules", "importers", "report", "confirm", "diagnose.py", "findings.py"):
        base = ROOT / "traindoc" / sub
        for path in ([base] if base.is_file() else sorted(base.rglob("*.py"))):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                args = []
                if isinstance(node.func, ast.Attribute) and node.func.attr in ("series", "has") and node.args:
                    args = [node.args[0]]
                for kw in node.keywords:
                    if kw.arg == "needs" and isinstance(kw.value, (ast.Tuple, ast.List)):
                        args += kw.value.elts
                for a in args:
                    if isinstance(a, ast.Constant) and isinstance(a.value, str) and ":" not in a.value:
                        out.append((f"{path.relative_to(ROOT)}:{a.lineno}", a.value))
    return out


def test_every_series_the_rules_read_is_in_the_schema():
    # a name read but never written (a typo, a series renamed in the monitor only) would
    # make its rule silently "cannot tell"; prefixes ("act/", "grad_norm/") must start one
    names = _read_names()
    assert len(names) > 50
    prefixes = {s.name.split("{")[0] for s in SCHEMA if "{" in s.name}
    bad = [(where, n) for where, n in names
           if lookup(n) is None and not (n.endswith("/") and any(p.startswith(n) for p in prefixes))]
    assert not bad, bad

"""TD521 torch-load-unsafe: ``torch.load`` without ``weights_only=True``."""

from __future__ import annotations

import ast

from .. import names as N
from ..patterns import keyword, may_be
from ..registry import Hit, lint_rule


@lint_rule(
    "torch-load-unsafe", "TD521", "info",
    "torch.load without weights_only=True: before torch 2.6 it unpickles arbitrary objects (code execution)",
    needles=[("load(",)],
    fix="torch.load(path, map_location=..., weights_only=True) for state dicts and tensors "
        "(torch.serialization.add_safe_globals for the few extra types you trust); safetensors for shared weights",
    confirm="python -c 'import torch; print(torch.__version__)': before 2.6 the default is weights_only=False",
)
def check(m):
    """What it detects: a call of `torch.load(...)` (any import spelling) that does not pass
    `weights_only`. A call that passes it (True, or False as a deliberate choice) or
    `**kwargs` is not flagged, nor is any load in a file that calls `torch.save` (a
    script that resumes the checkpoints it writes itself: `torch.save`, a `Checkpoint`
    handler, `save_checkpoint`), a literal path (a fixed file of the project) or a test
    file (`test_*.py`, `*_test.py`). Severity info: since torch 2.6 the default is True, so the
    finding matters for code that must also run on older versions, or that loads files
    from elsewhere (downloads, shared checkpoints).

    Why it breaks training: `torch.load` uses pickle. With `weights_only=False` (the
    default before 2.6) a checkpoint can run any code when it is loaded: a downloaded or
    shared file is a program, not data. Being explicit also keeps the behaviour from
    changing under the code when torch is upgraded: a checkpoint that pickled a custom
    object loads on 2.5 and fails on 2.6 with "Weights only load failed".

    Example:
        state = torch.load("resnet_from_the_internet.pt")

    How to fix:
        state = torch.load("resnet.pt", map_location="cpu", weights_only=True)
    """
    if b"torch.save(" in m.source or b"save_checkpoint" in m.source or b"Checkpoint(" in m.source:
        return  # the script loads checkpoints it writes itself
    base = m.path.replace("\\", "/").rsplit("/", 1)[-1]
    if base.startswith("test_") or base.endswith("_test.py"):
        return  # a test reloads what it just saved
    for site in m.w.calls:
        call = site.node
        if not may_be(call, ("load",)):
            continue
        c = m.callee(call)
        if c[0] == "fn" and c[1] in N.TORCH_LOAD and keyword(call, "weights_only") is None \
                and not any(k.arg is None for k in call.keywords) and not _literal_path(call):
            yield Hit(call, "torch.load without weights_only=True: before torch 2.6 this unpickles arbitrary "
                            "objects, so loading a file from elsewhere can run code; pass weights_only=True")


def _literal_path(call) -> bool:
    """``torch.load("traindata.pt")``: a fixed file of the project, not a file from elsewhere."""
    a = call.args[0] if call.args else keyword(call, "f")
    return isinstance(a, ast.Constant) and isinstance(a.value, str)

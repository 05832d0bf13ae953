"""TD521 torch-load-unsafe: ``torch.load`` without ``weights_only=True``."""

from __future__ import annotations

import ast

from .. import names as N
from ..flow import single_def
from ..registry import Hit, lint_rule
from ..source import keyword, may_be, text


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
    `**kwargs` is not flagged, nor (unless another load of the file passes `weights_only=True`:
    then that is the file's convention) is a load of a checkpoint the file writes itself (its
    path shares a string constant or a name with the path of a `torch.save` of the file:
    `os.path.join(out_dir, "ckpt.pt")` both ways, `self.snapshot_path`) or of a literal path
    (a fixed file of the project; under that convention still flagged when it is loaded into
    `load_state_dict`, where weights_only=True always fits); nor a load in a test file (`test_*.py`, `*_test.py`). Also
    flagged: `weights_only=False` passed for a file a download call returned
    (`hf_hub_download(...)`, `urlretrieve(...)`), at severity warning: that one is unsafe on
    every torch version. Severity info: since torch 2.6 the default is True, so the
    finding matters for code that must also run on older versions, or that loads files
    from elsewhere (downloads, shared checkpoints).

    Why it happens: `torch.load` uses pickle. With `weights_only=False` (the
    default before 2.6) a checkpoint can run any code when it is loaded: a downloaded or
    shared file is a program, not data. Being explicit also keeps the behaviour from
    changing under the code when torch is upgraded: a checkpoint that pickled a custom
    object loads on 2.5 and fails on 2.6 with "Weights only load failed".

    Example:
        state = torch.load("resnet_from_the_internet.pt")

    How to fix:
        state = torch.load("resnet.pt", map_location="cpu", weights_only=True)
    """
    base = m.path.replace("\\", "/").rsplit("/", 1)[-1]
    if base.startswith("test_") or base.endswith("_test.py"):
        return  # a test reloads what it just saved
    loads = [s.node for s in m.w.calls if may_be(s.node, ("load",)) and m.callee(s.node)[0] == "fn"
             and m.callee(s.node)[1] in N.TORCH_LOAD]
    # a file that passes weights_only=True to another load has made it its convention: a
    # load without it there is an oversight even of its own checkpoint (the linesight fix)
    strict = any(_true(keyword(c, "weights_only")) for c in loads)
    # weights loaded into a module (`net.load_state_dict(torch.load("actor.pth"))`): under that
    # convention a fixed file of the project is no excuse either (weights_only=True always fits)
    into_state = [s.node.args[0] for s in m.w.calls if strict and s.node.args and isinstance(s.node.func, ast.Attribute)
                  and s.node.func.attr == "load_state_dict"]
    for call in loads:
        if keyword(call, "weights_only") is None and not any(k.arg is None for k in call.keywords) \
                and (strict and (not _literal_path(call) or call in into_state) or not _literal_path(call)
                     and not _own_checkpoint(m, call)):
            yield Hit(call, "torch.load without weights_only=True: before torch 2.6 this unpickles arbitrary "
                            "objects, so loading a file from elsewhere can run code; pass weights_only=True")
        elif _false(keyword(call, "weights_only")) and _downloaded(m, call):
            yield Hit(call, "torch.load(..., weights_only=False) of a downloaded file: unpickling it runs whatever "
                            "code the file carries; load the weights with weights_only=True (and rebuild the "
                            "config from JSON)", severity="warning")


def _false(e) -> bool:
    return isinstance(e, ast.Constant) and e.value is False


def _true(e) -> bool:
    return isinstance(e, ast.Constant) and e.value is True


_DOWNLOAD_WORDS = ("download", "hub", "url", "fetch")


def _downloaded(m, call) -> bool:
    """The path is what a download call returned (``hf_hub_download``, ``urlretrieve``,
    ``download_url_to_file``'s target is not tracked): a file from elsewhere."""
    a = call.args[0] if call.args else keyword(call, "f")
    d = single_def(m, a) if isinstance(a, ast.Name) else a
    if isinstance(d, ast.Subscript):
        d = d.value  # path = urlretrieve(url, name)[0]
    return isinstance(d, ast.Call) and any(w in (text(d.func) or "").lower() for w in _DOWNLOAD_WORDS)


def _literal_path(call) -> bool:
    """``torch.load("traindata.pt")``: a fixed file of the project, not a file from elsewhere."""
    a = call.args[0] if call.args else keyword(call, "f")
    return isinstance(a, ast.Constant) and isinstance(a.value, str)


def _path_arg(call, save: bool):
    i = 1 if save else 0
    if len(call.args) > i:
        return call.args[i]
    return keyword(call, "f")


def _keys(m, e, depth: int = 2) -> set:
    """What identifies a path expression: its string constants, the names it uses and the
    last attribute of dotted names (``opts.model_path`` -> model_path, not opts)."""
    out: set = set()
    todo = [e] if e is not None else []
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Constant):
            if isinstance(n.value, str) and len(n.value) > 2:
                out.add("s:" + n.value)
        elif isinstance(n, ast.Attribute):
            out.add("n:" + n.attr)
            if not isinstance(n.value, (ast.Name, ast.Attribute)):
                todo.append(n.value)
        elif isinstance(n, ast.Name):
            out.add("n:" + n.id)
            if depth:
                d = m.defs(n)
                if d and len(d) == 1 and _path_like(d[0]):
                    out |= _keys(m, d[0], depth - 1)
        elif isinstance(n, ast.AST):
            todo.extend(ast.iter_child_nodes(n))
    return out


def _path_like(e) -> bool:
    """An expression that builds a path (followed through names), not ``parser.parse_args()``."""
    if isinstance(e, (ast.Constant, ast.BinOp, ast.JoinedStr)):
        return True
    return isinstance(e, ast.Call) and text(e.func).rsplit(".", 1)[-1] in ("join", "format", "Path", "joinpath")


_GENERIC = frozenset({"n:os", "n:path", "n:join", "n:args", "n:opt", "n:self", "n:config", "n:cfg", "n:format"})


def _own_checkpoint(m, call) -> bool:
    """The load's path matches the path of a ``torch.save`` in the same file."""
    saves = m.memo.get("torch-load-unsafe.saves")
    if saves is None:
        saves = set()
        for s in m.w.calls:
            f = s.node.func
            if (f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "") == "save" \
                    and (m.qualname(f) or "").endswith("torch.save"):
                saves |= _keys(m, _path_arg(s.node, True))
        saves -= _GENERIC
        m.memo["torch-load-unsafe.saves"] = saves
    return bool(saves) and not saves.isdisjoint(_keys(m, _path_arg(call, False)))

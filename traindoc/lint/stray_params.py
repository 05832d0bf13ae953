"""Modules with their own parameters that no optimizer takes: a loss with learned weights
(uncertainty weighting, an adaptive softmax, an ArcFace head) built next to the model and
called in training, while the optimizer is given only ``model.parameters()``. Used by the
rule ``optimizer-misses-params``."""

from __future__ import annotations

import ast
import re

from .flow import is_module_class
from .registry import Hit
from .source import call_name, segment, text
from .walk import walk

_MOVES = frozenset({"to", "cuda", "cpu", "float", "double", "half", "train"})
_OWNS_PARAMS = re.compile(r"\b(Parameter|Linear|Embedding|Conv[123]d|Bilinear)\(")


def stray_modules(m, opt_calls: list):
    """A module class of the file that owns parameters (``nn.Parameter``, ``nn.Linear`` in its
    ``__init__``: learned loss weights, a re-ID classifier inside the loss) instantiated on an
    object that is not a module (a Trainer's ``self.loss = JointLoss(...)``) and called,
    while no optimizer call mentions it and nothing takes its ``.parameters()``: those
    parameters keep their initial values (FairMOT's uncertainty weights)."""
    if b".backward(" not in m.source:
        return
    # text tests on each class's lines first: unparsing every class costs a third of lint's time
    trainers = [c for c in m.w.classes.values() if b".backward(" in segment(m, c) and not is_module_class(m, c)
                and not c.name.startswith("Test") and not any(text(b).endswith("TestCase") for b in c.bases)]
    if not trainers:
        return  # (a module's attributes are submodules: model.parameters() holds them; a test)
    owning = owning_classes(m)
    if not owning:
        return
    src = m.source.decode("utf-8", "replace") if isinstance(m.source, bytes) else m.source
    opt_text = " ".join(ast.unparse(c) for c in opt_calls)
    for cls in trainers:
        for n in _own_class_nodes(cls):
            v = n.value if isinstance(n, ast.Assign) and len(n.targets) == 1 else None
            while isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in _MOVES:
                v = v.func.value  # JointLoss(...).to(device)
            if not (isinstance(v, ast.Call) and call_name(v) in owning and text(n.targets[0]).startswith("self.")):
                continue
            tgt = text(n.targets[0])
            attr = tgt.split(".", 1)[1]
            if f"{tgt}(" not in src or re.search(re.escape(tgt) + r"\.(named_)?parameters\(", src) \
                    or re.search(r"[(,=]\s*" + re.escape(tgt) + r"\s*[,)\]]", src) \
                    or re.search(rf"\b{re.escape(attr)}\b", opt_text):
                continue
            yield Hit(n, f"`{tgt}` is a {call_name(v)}, a module with its own parameters, kept on "
                         f"`{cls.name}` (not a module) and called in training, but no optimizer takes "
                         f"`{tgt}.parameters()`: they never train; add them to the optimizer")


def _own_class_nodes(cls: ast.ClassDef):
    """The nodes of ``cls``'s methods, less those of classes defined inside them (whose
    ``self`` is another object)."""
    todo = [x for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for x in f.body]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.ClassDef):
            continue
        yield n
        todo.extend(ast.iter_child_nodes(n))


def owning_classes(m) -> set[str]:
    """Names of the module classes of the file whose ``__init__`` creates parameters."""
    got = m.memo.get("stray.owning")
    if got is None:
        got = m.memo["stray.owning"] = set()
        for c in m.w.classes.values():
            init = next((f for f in c.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
            if init is not None and _OWNS_PARAMS.search(segment(m, init).decode("utf-8", "replace")) \
                    and is_module_class(m, c):
                got.add(c.name)
    return got


def local_strays(m, opt_sites: list):
    """In a function that trains (calls backward) and builds its optimizer, a local
    ``criterion = SplitCrossEntropyLoss(...)`` of an owning class that is called, never
    handed on, and that the optimizer's arguments (followed one binding back: ``params =
    list(model.parameters()) + list(criterion.parameters())``) never mention: a Hit at the
    optimizer call."""
    owning = owning_classes(m)
    if not owning:
        return
    by_fn: dict[int, list] = {}
    for site in opt_sites:
        if site.ctx.func is not None:
            by_fn.setdefault(id(site.ctx.func), []).append(site)
    for sites in by_fn.values():
        fn = sites[0].ctx.func
        seg = segment(m, fn).decode("utf-8", "replace")
        if ".backward(" not in seg or "add_param_group" in seg:
            continue
        for n in walk(fn):
            v = n.value if isinstance(n, ast.Assign) and len(n.targets) == 1 \
                and isinstance(n.targets[0], ast.Name) else None
            while isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in _MOVES:
                v = v.func.value
            if not (isinstance(v, ast.Call) and call_name(v) in owning):
                continue
            name = n.targets[0].id
            if not re.search(rf"\b{name}\(", seg) or re.search(rf"[(,=\[]\s*{name}\s*(?=[,)\]\n]|$)", seg, re.M):
                continue  # never called, or handed on (into the model, a wrapper, a list)
            if any(re.search(rf"\b{name}\b", _args_text(m, s.node)) for s in sites):
                continue
            site = sites[-1]
            yield Hit(site.node, f"`{name}` is a {call_name(v)}, a module with its own parameters, called in "
                                 f"training, but this optimizer is not given `{name}.parameters()`: they keep "
                                 f"their initial values; pass them too (or add_param_group)")


def _args_text(m, call: ast.Call) -> str:
    """The optimizer call's arguments, with each name followed one binding back."""
    parts = [ast.unparse(call)]
    for x in walk(call):
        if isinstance(x, ast.Name):
            parts += [ast.unparse(d) for d in m.defs(x) or () if isinstance(d, ast.AST)]
    return " ".join(parts)

"""The file's model, for a parameter that no call in the file fills: ``def fit(model, loader)``
in a file that defines one model class and never calls ``fit``. Reading the parameter as an
instance of that class lets the rules see what its ``forward`` returns (a sigmoid fed to
BCEWithLogitsLoss, a LogSoftmax fed to CrossEntropyLoss) where the script's author wrote
them in one file but wired them together in another."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any
from .walk import walk

if TYPE_CHECKING:  # kinds imports this module: the type alone, no import cycle at run time
    from .kinds import Module

MODEL_WORDS = frozenset({"model", "net", "network", "classifier", "clf", "generator", "discriminator", "encoder",
                         "decoder", "policy", "critic", "actor", "predictor", "regressor", "learner"})
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def only_model_for(m: Module, name: str) -> Any:
    """The one ``nn.Module`` class of the file that no other class of the file builds (its
    top-level model), when ``name`` reads as a model (``model``, ``net``, ...) or as a word of
    that class's name (``head`` for ``LabelHead``); else None. Memoised per file."""
    top = m.memo.get("main-model.top")
    if top is None:
        top = m.memo["main-model.top"] = _top_models(m)
        m.memo["main-model.words"] = {w.lower() for w in _CAMEL.findall(top[0].name)} | {top[0].name.lower()} \
            if len(top) == 1 else set()
    if len(top) != 1:
        return None
    low = name.lower().strip("_")
    words = m.memo["main-model.words"]
    if low in MODEL_WORDS or low in words or low.rsplit("_", 1)[-1] in MODEL_WORDS:
        return top[0]
    # one of several instances (net_a, net_b, model2) or a role by its initial (netD for the
    # file's Discriminator; not netG, the generator defined elsewhere)
    mt = _SUFFIXED.fullmatch(low)
    if mt and mt.group(1) in MODEL_WORDS and (mt.group(2) or mt.group(3).isdigit()
                                             or any(w[:1] == mt.group(3) for w in words)):
        return top[0]
    return None


def module_global(m: Module, name: str) -> Any:
    """The value of the one top-level ``name = value`` of the file, or None: what a
    parameter of the same name of a function the file never calls was meant to receive
    (a script that defines ``train(model, loader, criterion)`` and ``criterion``)."""
    g = m.memo.get("main-model.globals")
    if g is None:
        g = m.memo["main-model.globals"] = {}
        for st in m.tree.body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                n = st.targets[0].id
                g[n] = None if n in g else st.value  # bound twice: ambiguous
    if name not in g:  # def setup(): crit = nn.BCEWithLogitsLoss(); return model, crit
        built = m.memo.get("main-model.built")
        if built is None:
            built = m.memo["main-model.built"] = _returned_locals(m)
        return built.get(name)
    return g.get(name)


def forward_output(m: Module, name: str) -> Any:
    """The name the file's top-level model's ``forward`` returns as ``name`` (``policy``), or in
    the plural (``policies``, a rollout's list of them), or None: what a function the file
    never calls receives under that name (ACER's ``policy_loss(policies, ...)``)."""
    top = m.memo.get("main-model.top")
    if top is None:
        only_model_for(m, "model")  # fills the memo
        top = m.memo["main-model.top"]
    fwd = next((f for f in top[0].body if isinstance(f, ast.FunctionDef) and f.name == "forward"), None) \
        if len(top) == 1 else None
    if fwd is None:
        return None
    low = name.lower()
    got = [e for r in walk(fwd) if isinstance(r, ast.Return) and r.value is not None
           for e in (r.value.elts if isinstance(r.value, ast.Tuple) else (r.value,))
           if isinstance(e, ast.Name) and low in (e.id.lower(), e.id.lower() + "s", e.id.lower()[:-1] + "ies")]
    return got[0] if len(got) == 1 else None


def _returned_locals(m: Module) -> dict:
    """name -> value of each ``name = value`` that a top-level builder function returns as
    ``name`` (alone or in a tuple) from its one binding: what a caller's same-named variable
    receives. From the walker's index of returns: no extra walk of the file."""
    out: dict = {}
    for fn in m.tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for r in m.w.returns.get(id(fn)) or ():
            for e in r.elts if isinstance(r, ast.Tuple) else (r,):
                d = m.defs(e) if isinstance(e, ast.Name) else None
                if d and len(d) == 1 and isinstance(d[0], ast.expr):
                    out[e.id] = None if e.id in out and out[e.id] is not d[0] else d[0]
    return out


_SUFFIXED = re.compile(r"([a-z]+?)(_?)([a-z0-9])")


def _top_models(m: Module) -> list:
    # top-level classes only (a model class nested in a function is rare, and walking the
    # whole tree for it cost 2 % of lint's time); their methods are walked for submodules
    if b"class " not in m.source:
        return []
    from .flow import is_module_class  # flow imports kinds, which imports this module

    classes = [n for n in m.tree.body if isinstance(n, ast.ClassDef) and is_module_class(m, n)]
    if not classes or len(classes) > 8:
        return []
    names = {c.name for c in classes}
    inner = set()  # classes another module class builds (its submodules)
    for c in classes:
        for n in (x for f in c.body if isinstance(f, ast.FunctionDef) for x in walk(f)):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names and n.func.id != c.name:
                inner.add(n.func.id)
    return [c for c in classes if c.name not in inner]

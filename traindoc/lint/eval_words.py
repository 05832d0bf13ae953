"""Words that mark code as validation or test code: the names of loops' iterables, of
functions and of files (shared by the rules about evaluation passes)."""

from __future__ import annotations

import ast
import re

from .bindings import Param
from .source import text

# Words (split on _ . [ ' ") that mark an iterable or a function as validation/test data.
_SPLIT = re.compile(r"[^a-z0-9]+")
LOOP_WORDS = frozenset({"val", "valid", "validation", "eval", "evaluation", "test", "dev", "holdout"})
FUNC_WORDS = frozenset({"val", "valid", "validate", "validation", "eval", "evaluate", "evaluation"})


def pytest_file(m) -> bool:
    """A test module: named ``test_*.py`` / ``*_test.py``, or importing pytest or unittest.
    Elsewhere ``def test_epoch(net, loader)`` is an evaluation function of the script."""
    name = m.path.replace("\\", "/").rsplit("/", 1)[-1]
    return name.startswith("test_") or name.endswith("_test.py") or b"pytest" in m.source \
        or b"unittest" in m.source


# glued names (`testloader`, `valset`, `evaldata`): the marking word is their prefix
_GLUED = re.compile(r"^(val|valid|eval|test|dev)(loader|set|data|dataset|dl|iter|batch|batches|gen)s?$")


def words(s: str) -> set[str]:
    out = set(_SPLIT.split(s.lower())) if s else set()
    return out | {g.group(1) for g in map(_GLUED.match, out) if g}


def literal_words(e) -> str:
    """``loaders["val"]`` -> 'loaders val'; ``tqdm(range(len(test_set)))`` -> 'test_set'."""
    if isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Constant) and isinstance(e.slice.value, str):
        return f"{text(e.value)} {e.slice.value}"
    if isinstance(e, ast.Call) and e.args:  # enumerate(val_loader), tqdm(range(len(test_set))), zip(xv, yv)
        return " ".join(f"{text(a) or ''} {literal_words(a)}" if isinstance(a, ast.Call) else text(a) or literal_words(a)
                        for a in e.args)
    return ""


# An inference function (``def predict(self, X)``) is an evaluation pass when it switches
# the model to eval mode itself: its author meant inference but left autograd on.
INFER_WORDS = frozenset({"predict", "inference", "infer", "forecast"})


def evals_before(fn, loop) -> bool:
    """``fn`` calls ``<something>.eval()`` (no argument) before ``loop``."""
    return fn is not None and any(
        isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "eval" and not c.args
        and c.lineno < loop.lineno for c in ast.walk(fn))


def wrapped_validation(m, it) -> bool:
    """``progress = tqdm(val_loader, desc=...)`` then ``for batch in progress:``: a name set
    once to a wrapper of validation data."""
    d = m.defs(it) if isinstance(it, ast.Name) else None
    return bool(d) and len(d) == 1 and isinstance(d[0], ast.Call) and bool(words(literal_words(d[0])) & LOOP_WORDS)


def passed_validation_data(m, it) -> bool:
    """``for x, y in loader`` where ``loader`` is a parameter that every call of the function
    in this file fills with validation data (``check_accuracy(net, val_loader)``)."""
    base = it.args[0] if isinstance(it, ast.Call) and it.args and text(it.func) in ("enumerate", "tqdm") else it
    d = m.defs(base) if isinstance(base, ast.Name) else None
    if not d or len(d) != 1 or not isinstance(d[0], Param):
        return False
    vals = m.arg_values(d[0])
    return bool(vals) and all(words(text(v) or literal_words(v)) & LOOP_WORDS for v in vals)

"""Words that mark code as validation or test code: the names of loops' iterables, of
functions and of files (shared by the rules about evaluation passes)."""

from __future__ import annotations

import ast
import re

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


def words(s: str) -> set[str]:
    return set(_SPLIT.split(s.lower())) if s else set()


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

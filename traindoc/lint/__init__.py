"""``traindoc lint``: static checks of training code for numerical and training-loop pitfalls.

Source in, :class:`~traindoc.findings.Finding` out, one rule per file under ``rules/``
(stable kebab-case names, codes TD5xx). Python's :mod:`ast` only: nothing is imported or
executed from the code being checked.

    >>> import traindoc
    >>> for f in traindoc.lint(["train.py"]):
    ...     print(f.location["line"], f.name, f.message)
"""

from __future__ import annotations

import os
import sys
import types
import warnings
from typing import Iterable, Union

from ..findings import Finding
from .engine import LintResult, lint_paths, lint_source


def lint(
    paths: Union[str, os.PathLike, Iterable[Union[str, os.PathLike]]],
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
) -> list[Finding]:
    """Lint files and folders (folders: every ``*.py`` below them); findings ordered by file and line.

    ``select`` / ``ignore``: rule names or TD5xx codes. A missing path raises
    :class:`~traindoc.errors.UserError`, and so does a folder without ``*.py``; a file given
    by name that is not Python is skipped with a warning; a file with a syntax error yields one
    ``unparsable-file`` finding (severity error) and the other files are still checked.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    res = lint_paths([os.fspath(p) for p in paths], select=select, ignore=ignore)
    for note in res.skipped:  # a non-Python file given by name: not linted, and said so
        warnings.warn(f"traindoc lint: skipped {note}", stacklevel=2)
    return res.findings


__all__ = ["LintResult", "lint", "lint_paths", "lint_source"]


class _CallableModule(types.ModuleType):
    """``traindoc.lint`` is both this package and the function above: once the package is
    imported, Python binds the *package* to the attribute ``traindoc.lint`` (and the lazy
    ``traindoc.__getattr__`` is then never asked). Calling the package calls the
    function, so ``traindoc.lint(paths)`` works whichever of the two the name holds."""

    def __call__(self, *args, **kwargs):
        return lint(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

# Register every rule's name (and TD5xx code) in the taxonomy on import, so that
# `traindoc explain NAME`, Finding() and the JSON know lint names without running lint.
from .registry import load_all as _load_all  # noqa: E402

_load_all()

"""The experiment registry: one experiment per file under ``experiments/``, one stable name
(``docs/taxonomy.md``, section Experiments).

An experiment changes one thing in a re-execution of the user's script. It has two
halves that run in different processes:

- ``install(hooks, params, ctx)`` runs in the experiment's child process before the
  script starts, and registers callbacks on :class:`~traindoc.confirm.hooks.Hooks`;
- ``judge(cause, base, var, params)`` runs in the parent and compares the re-execution
  with the change (``var``) against the one without (``base``, same seed, same steps):
  a :class:`Verdict` of ``confirmed``, ``refuted`` or ``inconclusive`` with the numbers.

``settles`` maps each cause the experiment tests to the parameters of the variant that
tests it (``lr-scale`` runs x0.1 for ``lr-too-high`` and x10 for ``lr-too-low``). Its
docstring (What it changes / What it settles / How it is judged) is what ``traindoc
explain NAME`` prints.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
from dataclasses import dataclass
from typing import Any, Callable

CONFIRMED, REFUTED, INCONCLUSIVE = "confirmed", "refuted", "inconclusive"


@dataclass
class Verdict:
    verdict: str
    text: str
    effect: float | None = None  # the effect size the verdict rests on (see each judge)
    # the changed run's end loss over the baseline's, in the script's units (0 when the
    # change removed a non-finite loss): set by judge.fixes, comparable across experiments
    ratio: float | None = None


@dataclass(frozen=True)
class Variant:
    """One re-execution: an experiment with its parameters (``lr-scale`` x0.1)."""

    experiment: str
    params: tuple[tuple[str, Any], ...] = ()

    @property
    def key(self) -> str:
        return self.experiment + ("" if not self.params else ":" + json.dumps(dict(self.params), sort_keys=True))

    @property
    def label(self) -> str:
        return EXPERIMENTS[self.experiment].label(dict(self.params))


class Experiment:
    name: str = ""
    changes: str = ""
    settles: dict[str, dict[str, Any] | list[dict[str, Any]]] = {}
    needs_steps: int = 0  # a floor on the step budget (overfit-batch needs time to fit)

    def label(self, params: dict[str, Any]) -> str:
        return self.name

    def applies(self, cause: str, ctx: dict[str, Any]) -> str | None:
        """None when the experiment can test ``cause`` on this run, else why not."""
        return None

    def params_for(self, cause: str, ctx: dict[str, Any]) -> dict[str, Any] | list[dict[str, Any]]:
        """The variant's parameters, or a list of them (one re-execution each)."""
        p = self.settles.get(cause, {})
        return [dict(x) for x in p] if isinstance(p, list) else dict(p)

    def install(self, hooks: Any, params: dict[str, Any], ctx: dict[str, Any]) -> None:
        raise NotImplementedError

    def judge(self, cause: str, base: Any, var: Any, params: dict[str, Any]) -> Verdict:
        raise NotImplementedError


EXPERIMENTS: dict[str, Experiment] = {}

# Experiments named in the taxonomy that do not run (yet): what would settle the cause.
NOT_RUN: dict[str, str] = {
    "loader-sweep": "varying DataLoader workers measures time, not the loss: run "
                    "`traindoc run` again with num_workers raised and compare the step time",
}


def experiment(cls: type[Experiment]) -> type[Experiment]:
    inst = cls()
    inst.__doc__ = inspect.cleandoc(cls.__doc__ or "")
    EXPERIMENTS[inst.name] = inst
    return cls


def load_all() -> dict[str, Experiment]:
    from . import experiments as pkg

    for m in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        importlib.import_module(f"{pkg.__name__}.{m.name}")
    return EXPERIMENTS


def for_cause(cause: str) -> Experiment | None:
    load_all()
    return next((e for e in EXPERIMENTS.values() if cause in e.settles), None)


def docs() -> dict[str, str]:
    load_all()
    return {n: e.__doc__ for n, e in EXPERIMENTS.items()}


Judge = Callable[[str, Any, Any, dict[str, Any]], Verdict]

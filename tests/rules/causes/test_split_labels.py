"""label-misaligned between splits (bench/real 337's shape: class indices taken from an
unsorted folder listing per split): the validation loss never goes below the chance level
while the training loss falls far below it, then rises far above it. Genuine overfitting
takes the validation loss below the chance level first."""

from __future__ import annotations

import math

import numpy as np

from traindoc.diagnose import diagnose

N = 264
H = math.log(7)
LABELS = {k: 1200 for k in range(7)}


def _train():
    """337's training curve: at the chance level for the first epoch, then falling to ~0.5."""
    t = np.arange(N)
    return 0.5 + 1.45 / (1 + np.exp((t - 110) / 25)) + 0.03 * np.random.default_rng(0).standard_normal(N)


def _causes(make_run, eval_loss):
    d = diagnose(make_run(n=N, loss=_train(), eval_loss=eval_loss, labels=LABELS, loss_fn=("cross_entropy", (32, 7))))
    return {c.name: c for c in d.causes}, [c.name for c in d.causes]


def test_validation_never_below_chance_then_far_above_it(make_run):
    by, order = _causes(make_run, [1.919, 2.054, 2.758, 3.596, 4.513, 5.554])
    assert order[0] == "label-misaligned" and "never went below the chance level" in by["label-misaligned"].message
    assert by["label-misaligned"].severity == "warning"
    assert "overfitting" not in by or by["overfitting"].confidence < by["label-misaligned"].confidence


def test_overfitting_after_generalising_is_not(make_run):
    by, order = _causes(make_run, [1.2, 0.9, 0.85, 1.0, 1.3, 1.6])
    assert order[0] == "overfitting" and "label-misaligned" not in by


def test_a_validation_loss_that_stays_near_chance_is_not_this(make_run):
    # never below chance but never far above it either (it ends at 1.1x): not the confident mistakes
    by, _ = _causes(make_run, [1.95, 1.97, 2.0, 2.05, 2.1, 2.15])
    assert "never went below the chance level" not in getattr(by.get("label-misaligned"), "message", "")

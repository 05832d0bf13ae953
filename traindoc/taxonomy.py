"""The stable names (``docs/taxonomy.md``, generated from here) with their codes and families.

Names are a public contract: tests, CI gates and users' scripts match on them. Add new
names at the end of a family; never rename or remove one.
"""

from __future__ import annotations

from dataclasses import dataclass

CAUSE = "cause"
SYMPTOM = "symptom"
INTERNAL = "internal"


@dataclass(frozen=True)
class Entry:
    name: str
    code: str
    family: str
    kind: str
    meaning: str


_ROWS = [
    # symptoms: what the run showed
    ("loss-nonfinite", "TD101", "symptom", SYMPTOM, "the loss became NaN or Inf"),
    ("grad-nonfinite", "TD102", "symptom", SYMPTOM, "a gradient became NaN or Inf"),
    ("loss-spike", "TD103", "symptom", SYMPTOM, "a sudden jump far outside the recent loss distribution"),
    ("loss-plateau", "TD104", "symptom", SYMPTOM, "the loss stopped decreasing while it is still high"),
    ("loss-oscillation", "TD105", "symptom", SYMPTOM, "the loss swings up and down without trending"),
    ("loss-divergence", "TD106", "symptom", SYMPTOM, "the loss trends upward"),
    ("grad-spike", "TD107", "symptom", SYMPTOM, "a sudden jump in gradient norm"),
    ("slow-step", "TD108", "symptom", SYMPTOM, "step time far above the run's usual"),
    ("loss-implausible", "TD109", "symptom", SYMPTOM, "the loss went below what the task allows (too good to be true)"),
    ("slow-learning", "TD110", "symptom", SYMPTOM,
     "the run learns far slower than the same program with one thing changed, or ends near chance level"),
    # causes
    ("data-nonfinite", "TD201", "data", CAUSE, "NaN or Inf in input features or targets"),
    ("data-outlier", "TD202", "data", CAUSE, "extreme feature values or an extreme sequence/list length"),
    ("data-unnormalized", "TD203", "data", CAUSE, "features on very different scales, or far from zero mean / unit variance"),
    ("label-misaligned", "TD204", "data", CAUSE, "targets do not correspond to their inputs"),
    ("class-imbalance", "TD205", "data", CAUSE, "a class distribution so skewed that the model collapses to the majority class"),
    ("label-conflict", "TD206", "data", CAUSE, "identical inputs carrying different targets"),
    ("data-duplicates", "TD207", "data", CAUSE, "repeated rows inflating some samples"),
    ("data-leakage", "TD208", "data", CAUSE, "the same samples in the training and the validation split"),
    ("constant-feature", "TD209", "data", CAUSE, "a feature that never varies"),
    ("target-leakage", "TD210", "data", CAUSE,
     "the target can be read off the inputs: the training loss falls far below what the task allows"),
    ("unstable-op", "TD301", "numerics", CAUSE, "an operation produced NaN/Inf from finite inputs"),
    ("fp16-overflow", "TD302", "numerics", CAUSE, "values exceed the float16 range (65504) under mixed precision"),
    ("fp16-underflow", "TD303", "numerics", CAUSE, "gradients flush to zero in float16"),
    ("loss-mismatch", "TD401", "loss", CAUSE, "the loss does not fit the task or the model's output"),
    ("loss-reduction", "TD402", "loss", CAUSE, "a summed loss whose gradient grows with batch or sequence size"),
    ("lr-too-high", "TD601", "optimization", CAUSE, "learning rate large enough to oscillate or diverge"),
    ("lr-too-low", "TD602", "optimization", CAUSE, "learning rate so small the loss barely moves"),
    ("missing-zero-grad", "TD603", "optimization", CAUSE, "gradients accumulate across steps because they are never cleared"),
    ("params-not-updated", "TD604", "optimization", CAUSE, "parameters that never change"),
    ("bad-init", "TD701", "architecture", CAUSE, "initialisation scale makes activations grow or shrink with depth"),
    ("vanishing-gradient", "TD702", "architecture", CAUSE, "gradients shrink towards the input layers until they stop learning"),
    ("exploding-gradient", "TD703", "architecture", CAUSE, "gradient norm blows up"),
    ("dead-relu", "TD704", "architecture", CAUSE, "a large fraction of ReLU units never activate"),
    ("saturated-activation", "TD705", "architecture", CAUSE, "sigmoid/tanh inputs so large their gradients vanish"),
    ("overfitting", "TD801", "generalization", CAUSE, "training loss falls while validation loss rises"),
    ("dataloader-bottleneck", "TD901", "system", CAUSE, "the training step waits on the input pipeline for a large share of its time"),
    # traindoc's own health: never a cause, never an exception in the user's loop
    ("monitor-error", "TD001", "traindoc", INTERNAL, "traindoc itself failed somewhere and stopped recording that part"),
]

TAXONOMY: dict[str, Entry] = {r[0]: Entry(*r) for r in _ROWS}


def entry(name: str) -> Entry:
    """The taxonomy entry for ``name``, or ``KeyError`` for a name not in the taxonomy."""
    try:
        return TAXONOMY[name]
    except KeyError:
        raise KeyError(f"{name!r} is not a traindoc name; see `traindoc explain --list`") from None


def register(name: str, code: str, family: str, kind: str, meaning: str) -> Entry:
    """Add a name (used by lint, whose rules have their own TD5xx codes)."""
    e = Entry(name, code, family, kind, meaning)
    old = TAXONOMY.get(name)
    if old is not None and old != e:
        raise ValueError(f"{name!r} is already registered as {old}")
    TAXONOMY[name] = e
    return e

"""label-conflict (TD206) in a recorded run: identical training inputs with different labels."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import features, finding
from .label_misaligned import chance_level

# What counts: conflicting groups must hold at least this share of the rows counted and
# raise the loss floor by at least this much (nats); a handful of contradictory duplicates
# in a large table (a real dataset's noise) changes nothing worth a finding.
MIN_SHARE = 0.02
MIN_FLOOR = 0.02
NOISE = 0.1  # the largest minority share of a group that reads as label noise rather than two labels


@rule("label-conflict", needs=("loss",))
def label_conflict(run):
    """What it detects: rows of the training batches that are identical in every input the
    model receives (exact fingerprints of the first steps' batches, `traindoc run` records
    them) but carry different class labels in the cross-entropy (or 0/1 targets in a binary
    cross-entropy). Within such a group no model can do better than predict the labels'
    proportions, so the group's label entropy is a floor under the training loss:
    H = -sum p log p, 0.69 nats a row for a 50/50 split. The finding reports the floor over
    all rows counted and compares it with the loss the run ended at; it is an error when the
    conflicts hold a fifth of the rows or (with more than two classes) make a quarter of the
    final loss, a warning otherwise (at least 2 % of the rows and 0.02 nats). When the loss sits at the chance level for the whole run, the conflicts are
    no more than a warning: labels re-shuffled apart from their inputs each epoch give the
    same input many labels over the run (label-misaligned), and conflicts on some rows would
    not keep the model from learning the others. Not reported when the inputs take no
    more distinct values than there are classes and most rows conflict: one token in and a
    neighbouring token out (a skip-gram's context word, a bigram's next character), where the
    target is a distribution given the input by design and the floor is the task's entropy
    (graykode/nlp-tutorial's Word2Vec: 7 one-hot words, 8 classes, every row in conflict). A
    warning at most when every listed group has a clear majority label (at most 10 % of its
    rows disagree): label noise of a few percent, not one record with two labels.

    Why it happens: the same record stored twice with two labels (annotators who
    disagree, a merge of two label versions), a feature that told the rows apart dropped
    or truncated (a text cut to its first words, a join on the wrong key), stories or
    logs whose continuations differ for the same state.

    How to confirm: group the training rows by their features and count distinct labels
    per group (`traindoc data check TABLE --label y` lists the groups).

    How to fix: resolve the labels (majority vote, relabel) or drop the conflicting rows;
    look for the missing feature that tells the rows apart.
    """
    ev = next((e for e in run.events() if e["kind"] == "label-groups"), None)
    d = (ev or {}).get("data") or {}
    rows, conflict_rows = int(d.get("rows") or 0), int(d.get("conflict_rows") or 0)
    floor = float(d.get("floor") or 0.0)
    if rows <= 0 or conflict_rows / rows < MIN_SHARE or floor < MIN_FLOOR:
        return []
    share = conflict_rows / rows
    if int(d.get("distinct") or rows) <= int(d.get("max_label") or 0) + 1 and share >= 0.5:
        # the inputs take no more values than there are classes, and most rows conflict:
        # the input cannot name one label per row by construction; the target is a
        # distribution given it (a skip-gram's context word, a bigram's next character)
        return []
    end = _final_ce(run)
    part = floor / end if end and end > 0 else None
    # Two classes: a binary task's final loss is small, so a modest share of contradictory
    # rows (sampled negatives that collide with positives, bench/real 102) is a large part
    # of it without being what held the run back: only the share makes it an error there.
    binary = int(d.get("max_label") or 0) <= 1
    strong = share >= 0.2 or part is not None and part >= 0.25 and not binary
    chance = chance_level(features(run))
    unrelated = chance is not None and end is not None and end >= 0.9 * chance[0]
    if unrelated:
        # the loss sits at the chance level: the model learns nothing from any row, which
        # conflicts on some rows do not explain; labels drawn anew each epoch (shuffled apart
        # from their inputs) make the same input carry many labels over the run
        strong = False
    groups = [g for g in d.get("examples") or [] if isinstance(g, list) and len(g) >= 2 and sum(g) > 0]
    noise = len(groups) >= 3 and all(1 - max(g) / sum(g) <= NOISE for g in groups)
    if noise:
        # each group has a clear majority: a noisy process (5 % of a sequence's bits flipped,
        # bench/real 433), not two records of one thing with two labels; the floor is the noise's
        strong = False
    tail = f" ({min(part, 1.0):.0%} of the {end:.3g} the run ended at)" if part is not None else ""
    return [finding(
        "label-conflict", 0.8 if strong else 0.4,
        f"{int(d.get('conflict_groups') or 0)} groups of identical training inputs carry different labels "
        f"({conflict_rows} of the {rows} rows counted, {share:.0%}): no model can fit both, so the training "
        f"cross-entropy cannot go below {floor:.3g} nats{tail}"
        + ("; but the loss sits at the chance level: labels that change between epochs for the same input "
           "(shuffled apart from it, label-misaligned) look the same" if unrelated else "")
        + (f"; each group has a clear majority label (at most {NOISE:.0%} of its rows disagree): label noise, whose "
           "entropy is the task's floor" if noise and not unrelated else ""),
        location={},  # the first steps' batches, not one step
        evidence=[{"event": "label-groups", **{k: d[k] for k in ("rows", "distinct", "conflict_groups",
                                                                   "conflict_rows", "floor", "examples") if k in d}}],
        fix="resolve the labels (majority vote or relabel) or drop the conflicting rows; look for the feature that "
            "tells them apart (a dropped column, a truncated text, a join on the wrong key)",
        confirm="group the training rows by their features and count distinct labels per group "
                "(traindoc data check TABLE --label y)",
    )]


def _final_ce(run) -> float | None:
    """The training cross-entropy at the end of the run: the median of its last tenth."""
    for name in ("loss/ce", "loss"):
        if run.has(name):
            v = np.asarray(run.series(name).values, float)
            v = v[np.isfinite(v)]
            if len(v):
                return float(np.median(v[-max(1, len(v) // 10):]))
    return None

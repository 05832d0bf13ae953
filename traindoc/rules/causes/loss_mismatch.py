"""loss-mismatch (TD401)."""

from __future__ import annotations

import math

import numpy as np

from .. import rule
from ..evidence import features, finding, focus_rank, last_module_class, module_order
from ..util import REGRESSION_LOSSES, fmt


@rule("loss-mismatch", needs=("loss",))
def loss_mismatch(run):
    """What it detects: a loss that does not fit the model's output: a cross-entropy/NLL
    loss that goes negative (NLLLoss on raw logits, unbounded below), or a model that
    ends in Softmax/Sigmoid whose loss then stalls on a floor far above zero (softmax
    before CrossEntropyLoss, sigmoid before BCEWithLogitsLoss; not when every torch loss it
    called takes probabilities as meant: BCELoss, a regression loss); a model ending in
    Softmax whose output was exactly 1 for every sample (a softmax over one value).

    Why it happens: CrossEntropyLoss and BCEWithLogitsLoss apply (log-)softmax/sigmoid
    themselves; NLLLoss expects log-probabilities; a classifier head copied from an
    inference script keeps its final Softmax.

    How to confirm: check the loss against the model's last layer; on one batch, the
    loss of a perfect prediction is not ~0 (a floor) or the loss is negative.

    Also: logits given to cross_entropy / binary_cross_entropy_with_logits that are never
    negative and exactly 0 in 10-99 % of the entries at the loss's first call (a ReLU after
    the last layer): real-valued logits are almost never exactly 0, rectified ones are
    wherever the layer's output was negative, and a class whose score is stuck at 0 gets
    no gradient through the ReLU.

    And: a regression loss (MSE, L1, Huber) on integer targets 0..K (K >= 2) given by a
    single output, whose loss stays at a fifth or more of the variance such labels would
    have (a warning; an error from half the variance): class indices regressed as numbers (the monitor records each loss function's
    input shape and its target's range once).

    And: cross_entropy given probabilities whatever the model's last module: every row of its
    input sums to 1 over the classes at the first call (``loss_fn/cross_entropy/input_rowsum_dev``),
    a softmax function in forward before a loss that applies log_softmax itself.

    And: a regression loss between a softmax output (rows of the (N, C) input summing to 1,
    or a model ending in Softmax) and one-hot targets (0/1 values, same shape): a
    classifier trained by regression, whose gradient through the softmax vanishes as soon
    as a class dominates (MSE on softmax learns several times slower than cross-entropy).

    How to fix: feed logits to CrossEntropyLoss/BCEWithLogitsLoss (remove the final
    Softmax/Sigmoid from the training graph), or use log_softmax + NLLLoss; for class
    indices, a K+1-way output with cross-entropy.
    """
    f = features(run)
    if len(f.loss) < 10:
        return []
    last = last_module_class(run)
    probs = _probabilities_into_cross_entropy(run) or (_one_unit_softmax(run) if last == "Softmax" else [])
    if probs:
        return probs
    if f.labels and f.loss_min < -0.05:
        return [finding(
            "loss-mismatch", 0.9,
            f"the classification loss went negative (min {fmt(f.loss_min)}): NLLLoss/cross-entropy got raw scores, "
            "not log-probabilities, and the optimizer pushes them without bound",
            evidence=[{"series": "loss", "min": fmt(f.loss_min), "first": fmt(f.loss_first)}],
            fix="use F.cross_entropy on the logits, or apply log_softmax before NLLLoss",
            confirm="compute the loss of one batch by hand: a proper cross-entropy is never negative",
        )]
    if last in ("Softmax", "Sigmoid", "LogSigmoid") and f.first_bad is None and math.isfinite(f.noise) \
            and not _takes_probabilities(run):
        floor = f.loss_last
        stalled = f.noise < 0.05 or f.rel_drop < 0.1
        # no torch loss function recorded: the loss is written by hand, and whether it squashes
        # again is a guess (BP-MLL's exp-loss on sigmoid outputs is right: bench/real 174 fixed)
        seen = any(k.startswith("loss_function/") for k in run.meta)
        squash = "softmax" if last == "Softmax" else "sigmoid"
        if floor > 0.3 and stalled:
            return [finding(
                "loss-mismatch", 0.7 if seen else 0.4,
                f"the model ends in {last} and its loss stalls at {fmt(floor)}: "
                + (f"a loss that applies {squash} itself is given" if seen else
                   f"if the hand-written loss applies {squash} itself, it is given")
                + " probabilities, which caps how low it can go",
                location={"module": last},
                evidence=[{"model": "last module", "class": last}, {"series": "loss", "last": fmt(floor), "min": fmt(f.loss_min)}],
                fix=f"remove the final {last} from the training graph and feed logits to CrossEntropyLoss/BCEWithLogitsLoss "
                    "(apply it only at inference)",
                confirm="overfit one batch: with the extra squashing the loss cannot get near 0",
            )]
    return _rectified_logits(run) or _regression_on_classes(run, f) or _regression_on_one_hot(run, last)


def _one_unit_softmax(run) -> list:
    """A model ending in Softmax whose output was exactly 1.0 for every sample on every
    sampled step (its recorded mean 1, spread 0): a softmax over one value, so the prediction
    is the same for every input and no gradient crosses it (bench/real 433: Keras'
    Dense(1, activation="softmax") for a binary target, written in PyTorch)."""
    order = module_order(run)
    if not order or order[-1][1] != "Softmax":
        return []
    name = order[-1][0]
    mean, std = (run.series(f"act/{name}/{k}", focus_rank(run)).values for k in ("mean", "std"))
    if not (len(std) >= 3 and len(mean) == len(std) and np.all(std == 0) and np.allclose(mean, 1.0)):
        return []
    return [finding(
        "loss-mismatch", 0.85,
        f"the model ends in Softmax ({name}) and its output was exactly 1.0 for every sample on all {len(std)} "
        "sampled steps: a softmax over one value is always 1, so the prediction is the same for every input and "
        "no gradient crosses it",
        location={"module": name},
        evidence=[{"model": "last module", "class": "Softmax"}, {"series": f"act/{name}/std", "max": 0.0}],
        fix="for one output unit use a sigmoid (or BCEWithLogitsLoss on the raw output); keep a softmax for two or "
            "more classes",
        confirm="print the model's output on a few inputs: every value is 1.0",
    )]


# Losses built for a squashed output: BCELoss wants probabilities, a regression loss on a
# sigmoid output (a VAE's pixels, a score in 0..1) is a bounded regression. A model ending
# in Sigmoid/Softmax whose recorded losses are all of these is using them as meant; its
# loss floor is the data's, not a double squashing (57's fixed sigma-VAE: summed MSE 417).
_FOR_PROBABILITIES = frozenset({"binary_cross_entropy", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"})


def _takes_probabilities(run) -> bool:
    """The torch loss functions the run called (``loss_function/NAME`` meta) are all ones that
    take a squashed output as meant; False when none was recorded (a hand-written loss)."""
    names = {k.split("/", 1)[1] for k in run.meta if k.startswith("loss_function/")}
    return bool(names) and names <= _FOR_PROBABILITIES


def _rectified_logits(run) -> list:
    rank = focus_rank(run)
    for name in ("cross_entropy", "binary_cross_entropy_with_logits"):
        lo, hi, zero = (run.series(f"loss_fn/{name}/input_{k}", rank).values for k in ("min", "max", "zero"))
        if not (lo.size and hi.size and zero.size):
            continue
        if lo[0] >= 0 and hi[0] > 0 and 0.1 <= zero[0] <= 0.99:
            return [finding(
                "loss-mismatch", 0.75,
                f"the logits given to {name} are never negative and exactly 0 in {zero[0]:.0%} of the entries (min "
                f"{fmt(lo[0])}, max {fmt(hi[0])}): a ReLU after the last layer, so every negative class score is "
                "clipped to 0 and gets no gradient",
                evidence=[{"loss_function": name, "input_min": fmt(lo[0]), "input_zero_share": round(float(zero[0]), 4)}],
                fix="remove the activation after the last layer: the loss wants raw logits (any real number)",
                confirm="print (logits == 0).float().mean() on one batch: raw logits are almost never exactly 0",
            )]
    return []




def _regression_on_classes(run, f) -> list:
    rank = focus_rank(run)
    for name in REGRESSION_LOSSES:
        desc = run.meta.get(f"loss_function/{name}")
        integral = run.series(f"loss_fn/{name}/target_integral", rank)
        if not isinstance(desc, dict) or integral.empty:
            continue
        lo = run.series(f"loss_fn/{name}/target_min", rank).values
        hi = run.series(f"loss_fn/{name}/target_max", rank).values
        inp = desc.get("input")
        shape = inp.get("shape") if isinstance(inp, dict) else None
        single = shape is not None and (len(shape) == 1 or (len(shape) == 2 and shape[1] == 1))
        if not (single and integral.values[0] == 1.0 and lo[0] == 0 and 2 <= hi[0] <= 1000):
            continue
        k = int(hi[0])
        var = ((k + 1) ** 2 - 1) / 12.0  # variance of labels spread evenly over 0..K
        if not (math.isfinite(f.loss_last) and f.loss_last >= 0.2 * var):
            continue  # the regression fits: integer targets that are real quantities
        # a regression of real counts can also sit there: below half the variance it is
        # a warning to look at, not an error
        return [finding(
            "loss-mismatch", 0.65 if f.loss_last >= 0.5 * var else 0.45,
            f"{name} regresses integer targets 0..{k} from a single output and stays at {fmt(f.loss_last)}, "
            f"{fmt(f.loss_last / var)}x the variance of such labels ({fmt(var)}): class indices treated as numbers",
            evidence=[{"loss_function": name, "input_shape": shape, "target_min": 0, "target_max": k,
                       "target_integral": 1.0},
                      {"series": "loss", "last": fmt(f.loss_last), "label_variance_if_uniform": fmt(var)}],
            fix=f"if the targets are classes, output {k + 1} logits and use F.cross_entropy(logits, y.long())",
            confirm="train the same model with cross-entropy for a few hundred steps: accuracy jumps if the classes "
                    "are unordered",
        )]
    return []


def _regression_on_one_hot(run, last) -> list:
    rank = focus_rank(run)
    for name in REGRESSION_LOSSES:
        desc = run.meta.get(f"loss_function/{name}")
        if not isinstance(desc, dict):
            continue
        inp, tgt = desc.get("input"), desc.get("target")
        shape = inp.get("shape") if isinstance(inp, dict) else None
        if not (shape and len(shape) >= 2 and shape[-1] >= 2 and isinstance(tgt, dict) and tgt.get("shape") == shape):
            continue
        lo, hi, integral = (run.series(f"loss_fn/{name}/target_{k}", rank).values for k in ("min", "max", "integral"))
        dev = run.series(f"loss_fn/{name}/input_rowsum_dev", rank).values
        if not (lo.size and hi.size and integral.size and lo[0] == 0 and hi[0] == 1 and integral[0] == 1.0):
            continue  # not 0/1 targets: a distillation onto soft targets, a regression
        if not (dev.size and dev[0] < 1e-3 or last == "Softmax"):
            continue
        return [finding(
            "loss-mismatch", 0.7,
            f"{name} between softmax probabilities (each row of the {shape[-1]}-wide input sums to 1) and 0/1 "
            "targets of the same shape: a classifier trained by regression, whose gradient through the softmax "
            "vanishes once a class dominates",
            evidence=[{"loss_function": name, "input_shape": shape, "target_min": 0, "target_max": 1,
                       "input_rowsum_dev": fmt(float(dev[0])) if dev.size else None, "last_module": last}],
            fix="output logits and use F.cross_entropy(logits, y) with class indices (or BCEWithLogitsLoss for "
                "multi-label 0/1 targets)",
            confirm="train the same model with cross-entropy on the logits for the same steps: the loss and the "
                    "accuracy move several times faster",
        )]
    return []


def _probabilities_into_cross_entropy(run) -> list:
    """cross_entropy given probabilities: at its first call every row of its (N, C, ...)
    input sums to 1 over the classes and lies in [0, 1]. Logits never do by chance (a
    default-initialised layer's rows sum to anything), so it is a fact about the code: a
    softmax (a function in forward, not only an nn.Softmax module) before a loss that applies
    log_softmax itself. The loss is then floored above 0 and its gradients shrink (bench/real
    336, 342: F.softmax returned by forward)."""
    rank = focus_rank(run)
    dev, lo, hi = (run.series(f"loss_fn/cross_entropy/input_{k}", rank).values for k in ("rowsum_dev", "min", "max"))
    if not (dev.size and lo.size and hi.size and dev[0] < 1e-3 and lo[0] >= 0 and hi[0] <= 1):
        return []
    desc = run.meta.get("loss_function/cross_entropy")
    shape = desc.get("input", {}).get("shape") if isinstance(desc, dict) and isinstance(desc.get("input"), dict) else None
    return [finding(
        "loss-mismatch", 0.85,
        f"cross_entropy is given probabilities: every row of its input{f' {shape}' if shape else ''} sums to 1 over "
        f"the classes (largest deviation {fmt(float(dev[0]))}) and lies in [{fmt(float(lo[0]))}, {fmt(float(hi[0]))}]: "
        "a softmax before a loss that applies log_softmax itself, so the loss cannot approach 0 and its gradients "
        "shrink",
        location={"step": 0},
        evidence=[{"series": "loss_fn/cross_entropy/input_rowsum_dev", "value": fmt(float(dev[0]))},
                  {"series": "loss_fn/cross_entropy/input_min", "value": fmt(float(lo[0]))},
                  {"series": "loss_fn/cross_entropy/input_max", "value": fmt(float(hi[0]))}],
        fix="return the logits from forward and give them to F.cross_entropy; apply softmax only for reporting "
            "(or use log_softmax + nll_loss)",
        confirm="print model(x).sum(1) on one batch: all ones means the model already applies softmax",
    )]

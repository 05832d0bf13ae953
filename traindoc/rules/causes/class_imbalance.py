"""class-imbalance (TD205)."""

from __future__ import annotations

import math

import numpy as np

from .. import rule
from ..evidence import features, finding, focus_rank
from ..util import fmt
from .lr_too_high import _killed_units


@rule("class-imbalance", needs=("loss", "event:labels|labels-multi"))
def class_imbalance(run):
    """What it detects: a label distribution (recorded from the cross-entropy targets)
    where one class holds more than 85 % of the targets, and a training loss that settles
    near the entropy of that distribution (0.8-1.5x): the model predicts the majority class
    (a warning when the loss is far from it: below, the model learned beyond the prior). For
    multi-label targets of a binary cross-entropy (one column per tag): tags positive on
    under 5 % of the rows on average, and a loss that settles within 0.8-1.5x their mean
    binary entropy, the per-element loss of a model that learned only each tag's frequency:
    it predicts every tag absent (the same for dense binary maps, a segmentation mask or a
    heatmap of cell centres, per element). For a binary loss the settled loss need not be near
    the entropy: when the model predicts positive under a tenth of the share of positive
    targets over the second half of the run (``loss_fn/*/pred_pos`` against ``target_pos``,
    sampled steps), it predicts the rare class (almost) never, and that is the finding. And, at warning severity whatever the loss does, a long
    tail of classes (3 to 100 of them: more is a vocabulary): a class under 1 % of the
    targets and under 1/20 of the largest one, trained with an unweighted loss (not for a
    language model's next-token targets, the model's input shifted by one: a character
    vocabulary's rare letters are no fault). The average loss hides it (the frequent
    classes carry it down), so only per-class recall shows that the rare ones are not
    learned; the condition is reported as a risk to check.

    Why it happens: long-tailed real data (fraud, rare intents, defects) trained with an
    unweighted loss and uniform sampling.

    Not when the classification loss is given class weights (``weight=``, ``pos_weight=``):
    that is the fix, and a weighted loss is not comparable with the label entropy.

    How to confirm: per-class recall on a validation set (the minority classes are
    never predicted); the loss plateau equals the label entropy printed here.

    How to fix: class weights in the loss (weight=, pos_weight=), a balanced sampler
    (WeightedRandomSampler), focal loss, or metrics that show the minority classes.
    """
    f = features(run)
    weak = _weak_weights(run, f)
    if weak is None and any(isinstance(m, dict) and m.get("weighted") for k, m in run.meta.items()
                            if k.startswith("loss_function/")):
        return []  # the loss is class-weighted: the fix is in place, and its value is not the label entropy's
    never = _never_positive(run)
    if f.multilabel and not f.labels:
        # a ReLU layer killed by steps of 3 %+ of the weights' norm (lr-too-high's reading) makes the
        # output constant, which predicts the majority whatever the classes: the steps are the cause
        return _multilabel(f, never, _killed_units(run) if never is not None else None)
    if not f.labels:
        return []
    total = sum(f.labels.values())
    major, cnt = max(f.labels.items(), key=lambda kv: kv[1])
    share = cnt / total
    if share < 0.85 and 3 <= len(f.labels) <= MAX_TAIL_CLASSES:
        # a language model's next tokens (targets = its input shifted by one): a character
        # vocabulary is small but as Zipfian as any, and its rare letters are no fault
        return [] if run.meta.get("targets/next_token") else _long_tail(f, total, cnt)
    if share < 0.85 or len(f.labels) < 2:
        return []
    h = f.prior_entropy
    never = never if len(f.labels) == 2 and _learned_little(f, h) else None  # (a binary label's, see _never_positive)
    # near: where a model that predicts the prior sits (the multi-label branch's band). Well
    # below it the model has learned beyond the majority class: the imbalance is then a risk
    # to check per class, not the shown cause (nnU-Net's 89 % background at 0.7x the entropy)
    near = math.isfinite(f.loss_last) and 0.8 * h <= f.loss_last < 1.5 * h or never is not None
    below = math.isfinite(f.loss_last) and f.loss_last < 0.8 * h and never is None
    c = (0.55 if near else 0.35) + min(0.3, (share - 0.85) * 3)
    above = math.isfinite(f.loss_last) and f.loss_last >= 1.5 * h and never is None
    if below or above:
        # below: learned beyond the prior, a risk to check per class (355 fixed); above: the model
        # does not even reach the class frequencies, which the imbalance does not explain (an
        # SSD's multibox loss summed over 16 anchors at 9x the entropy, bench/real 417): a warning at most
        c = min(c, 0.45)
    if f.first_bad is not None:
        # the run broke (NaN) before it could learn beyond the prior: sitting at the label
        # entropy then says little (a CTR model at step 60 does), so a warning at most
        c = min(c, 0.45)
    return [finding(
        "class-imbalance", c,
        f"class {major} is {share:.0%} of the training targets; the loss settles at {fmt(f.loss_last)}, "
        + (f"and the model predicts {never[1]:.2%} of the outputs positive against {never[2]:.2%} true positives: "
           "it (almost) never predicts the rare class" if never else
           f"below the label entropy {fmt(h)}: the model learned beyond the majority class, but an unweighted loss "
           "still lets it neglect the rare ones (check per-class recall)" if below else
           f"above the label entropy {fmt(h)} (a model that predicted the class frequencies would reach it): the "
           "imbalance is a risk, but something else holds the loss up" if above else
           f"near the label entropy {fmt(h)}: the model can score well by predicting the majority class")
        + (f"; the loss's class weights give the rarest class {weak[0]:.2g}x the commonest's, against a 1:{weak[1]:.0f} "
           "imbalance: too little to offset it (a weight not passed through, a smoothing floor)" if weak else ""),
        evidence=[{"events": "labels", "majority_class": major, "share": round(share, 4), "classes": len(f.labels)},
                  {"series": "loss", "last": fmt(f.loss_last), "label_entropy": fmt(h)}]
        + ([{"series": f"loss_fn/{never[0]}/pred_pos", "median": fmt(never[1]), "target_pos": fmt(never[2])}]
           if never else []),
        fix="weight the loss by inverse class frequency (weight=/pos_weight=) or resample (WeightedRandomSampler); "
            "report per-class recall",
        confirm="measure per-class recall on validation data: the minority classes are (almost) never predicted",
    )]


def _weak_weights(run, f) -> tuple[float, float] | None:
    """(weight ratio, count ratio) of the rarest class against the commonest when the
    cross-entropy's class weights offset under a quarter of an imbalance of 10:1 or more
    on the log scale
    (pytorch_tabular's helper gave a 5 % class 1.1x, not 19x: bench/real 448): the loss is
    then all but unweighted, and comparable with the label entropy; else None."""
    m = run.meta.get("loss_function/cross_entropy") or run.meta.get("loss_function/nll_loss") or {}
    w = m.get("class_weights") if isinstance(m, dict) else None
    if not w or not f.labels or max(int(k) for k in f.labels) >= len(w):
        return None
    rare = min(f.labels, key=f.labels.get)
    common = max(f.labels, key=f.labels.get)
    counts = f.labels[common] / max(f.labels[rare], 1e-9)
    ratio = w[int(rare)] / w[int(common)] if w[int(common)] > 0 else float("inf")
    # a weight r moves the decision boundary by log r in logit space, the prior by log(counts):
    # under a quarter of that (1.1x for 1:19, where smoothed log-weights give 3x) offsets nothing
    return (ratio, counts) if counts >= 10 and ratio < counts ** 0.25 else None


def _never_positive(run) -> tuple[str, float, float] | None:
    """(loss, predicted, true positive rate) of a binary loss whose model marks positive
    under a tenth of the share the targets hold, over the second half of the sampled steps:
    it predicts (almost) every element absent. Hard 0/1 targets only (at the first call:
    soft targets, a teacher's probabilities or Gaussian heatmaps, have no such share); the
    callers also want a loss that learned little beyond the prior (_learned_little): a
    calibrated model of a rare class may rightly stay under 0.5 once it ranks well."""
    rank = focus_rank(run)
    for key, s in run.matching("loss_fn/", rank).items():
        if not key.endswith("/pred_pos"):
            continue
        integral = run.series("loss_fn/" + key[: -len("pred_pos")] + "target_integral", rank).values
        if not (integral.size and integral[0] == 1.0):
            continue
        t = run.series("loss_fn/" + key[: -len("pred_pos")] + "target_pos", rank)
        if len(s.values) < 4 or len(t.values) != len(s.values):
            continue
        h = len(s.values) // 2
        pp, tp = float(np.median(s.values[h:])), float(np.median(t.values[h:]))
        if tp > 0 and pp <= 0.1 * tp:
            return key.split("/")[0], pp, tp
    return None


def _learned_little(f, h: float) -> bool:
    """The loss ends above half the prior's entropy: a model that ranks the rare class well
    ends far below it (bench/real 328, the all-background heatmap: 0.61x)."""
    return math.isfinite(f.loss_last) and f.loss_last >= 0.5 * h


def _multilabel(f, never, killed: dict | None = None) -> list:
    m = f.multilabel
    rate, h = float(m.get("mean_rate", math.nan)), float(m.get("prior_entropy", math.nan))
    if not (rate <= 0.05 and h > 0 and math.isfinite(f.loss_last)):
        return []
    never = never if _learned_little(f, h) else None
    if not (0.8 * h <= f.loss_last <= 1.5 * h or never is not None) or f.first_bad is not None:
        return []
    c = 0.55 + min(0.3, (1 - rate - 0.85) * 3)
    if killed is not None:
        c = min(c, 0.4)
    unit = "element" if m.get("dense") else "tag"
    what = (f"the binary target maps are positive on {rate:.2%} of their elements" if m.get("dense") else
            f"the {m.get('tags')} tags are positive on {rate:.1%} of the rows on average ({m.get('rare_share', 0):.0%} "
            "of them on under 1 %)")
    return [finding(
        "class-imbalance", c,
        f"{what}; " + (f"the model predicts {never[1]:.2%} of them positive against {never[2]:.2%} true positives "
                       f"(second half of the run): it predicts (almost) every {unit} absent; the loss "
                       f"{fmt(f.loss_last)} against {fmt(h)} for the positive rate alone" if never else
                       f"the loss settles at {fmt(f.loss_last)}, near {fmt(h)}, the loss of a model that learned only "
                       f"each {unit}'s frequency: it predicts every {unit} absent")
        + (f"; but the ReLU layer {killed['series'][4:-5]} was alive at the start and died at step "
           f"{killed['dead_from_step']} under steps of {killed['update_ratio_while_dying']} of the weights' norm: a "
           "network with dead units outputs a constant, whatever the classes (look at the step size: learning rate, "
           "a summed loss)" if killed is not None else ""),
        evidence=[{"events": "labels-multi", "tags": m.get("tags"), "mean_rate": round(rate, 5),
                   "rare_share": m.get("rare_share")},
                  {"series": "loss", "last": fmt(f.loss_last), "prior_entropy": fmt(h)}]
        + ([{"series": f"loss_fn/{never[0]}/pred_pos", "median": fmt(never[1]), "target_pos": fmt(never[2])}]
           if never else []),
        fix="pos_weight= in BCEWithLogitsLoss (negatives/positives per tag), focal or asymmetric loss, or drop the "
            "rarest tags; report per-tag recall or F1, not accuracy",
        confirm="measure recall per tag on validation data: the rare tags are never predicted",
    )]


RARE_SHARE = 0.01  # of all targets
# a language model's vocabulary is Zipfian by nature and no one weights its loss by token
# frequency: the long-tail warning is for label sets of a classifier
MAX_TAIL_CLASSES = 100
RARE_RATIO = 20    # the largest class over the rare one


def _long_tail(f, total: float, largest: float) -> list:
    """Classes under 1 % of the targets and 20x rarer than the largest (a warning)."""
    rare = sorted((k for k, v in f.labels.items() if v / total < RARE_SHARE and largest / max(v, 1e-9) >= RARE_RATIO),
                  key=lambda k: f.labels[k])
    if not rare:
        return []
    least = f.labels[rare[0]]
    return [finding(
        "class-imbalance", 0.4,
        f"{len(rare)} of {len(f.labels)} classes are under 1 % of the training targets (class {rare[0]}: "
        f"{least / total:.1%}, 1:{largest / max(least, 1e-9):.0f} against the largest) and the loss is unweighted: "
        "the average loss can fall while those classes are never learned",
        evidence=[{"events": "labels", "rare_classes": rare[:8], "rarest_share": round(least / total, 5),
                   "classes": len(f.labels)}],
        fix="weight the loss by inverse class frequency (cross_entropy(weight=...)) or resample "
            "(WeightedRandomSampler); report per-class recall or balanced accuracy",
        confirm="measure per-class recall on validation data: the rare classes are (almost) never predicted",
    )]

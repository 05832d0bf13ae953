"""class-imbalance: a class distribution so skewed the model can collapse to the
majority class.

What it detects:
    With ``--label`` (or ``label`` in the config; the label is never guessed), exact class
    counts, and the rarest class against the largest, r = n_min / n_max: a warning below
    ``min_class_ratio`` (0.1, 1:10), info below ``info_class_ratio`` (0.2, 1:5), a
    warning for a single class. Binary (``BCEWithLogitsLoss``) and multi-class labels
    alike: the rarest class is what the model drops first. NaN and null labels are not a
    class (``data-nonfinite`` reports them). Not read as classes, so never reported: a
    target with a non-integer value (regression, soft labels), more than 10 000 distinct
    values, a float target with more than two values unless they are 0..K-1 (class
    indices made float by a NaN), more than 20 distinct integers that are sparse in
    their range (fewer than half of max - min + 1: ids, prices in cents), and, from 6
    distinct integers, a quantity's shape: a block of at least 3 common values (each at
    least a fifth of the most common) with the rare values only at the two ends of the
    range (ages, counts, ratings; rare classes of a real label sit among the common
    ones). Labels of up to 5 values are always classes. Known miss: integer class ids
    laid out like a quantity (3 or more adjacent common classes, the rare ones at the
    ends, as ids numbered by frequency rank are) read as one; map them to strings to
    have them checked.

Why it happens:
    Take positives at share p = r / (1 + r) and ``BCEWithLogitsLoss`` without
    ``pos_weight``. The per-example gradient on the logit is sigmoid(z) - y.
    At initialisation (z ~ 0) every example pulls with 0.5, so the positives carry only
    p of the gradient (2 % at 1:48): the first steps learn "everything is negative".
    The bias alone reaches the constant predictor sigmoid(b) = p, b = ln r (-3.9 at
    1:48), with loss H(p) = -p ln p - (1 - p) ln(1 - p): 0.100 nats at 1:48 against
    ln 2 = 0.693 at the start, so 86 % of the loss curve's fall happens with nothing
    learned, and that predictor's accuracy is 1 - p (98 %). Past it the two classes'
    gradients balance (n p (1 - p) each), but the positives' half comes from 32 p rows
    of a 32-row batch: 0.65 at 1:48, and 52 % of such batches hold no positive at all
    (their step only pushes the negatives down). Finally the default threshold: a
    calibrated model (BCE is) predicts positive only where the posterior passes 0.5,
    i.e. where the features make the positive class 1 / r times more likely than the
    negative one (48x at 1:48). Recall collapses at 0.5 while accuracy looks excellent.
    Multi-class is the same argument class by class: ``argmax`` picks the rarest class
    over the largest only where the features favour it by n_max / n_min.

    The thresholds, from the same numbers (binary; ratio: positive share, the constant
    predictor's accuracy, H(p) / ln 2, batches of 32 with no positive, evidence needed
    at 0.5): 1:3: 25 %, 75 %, 0.81, 0.01 %, 3x (normal: nothing said); 1:5: 17 %, 83 %,
    0.65, 0.3 %, 5x (info: accuracy stops meaning much); 1:10: 9.1 %, 91 %, 0.44, 4.7 %,
    10x (warning: the bias alone removes over half of the loss, a 0.5 threshold needs a
    feature ten times likelier under the minority); 1:20: 4.8 %, 95 %, 0.28, 21 %, 20x;
    1:48: 2.0 %, 98 %, 0.14, 52 %, 48x; 1:100: 1.0 %, 99 %, 0.08, 73 %, 100x.

How to confirm:
    ``df[LABEL].value_counts()``; on validation, the per-class recall at the 0.5
    threshold (the minority's is near 0) and the PR curve.

How to fix:
    Weight the minority: ``BCEWithLogitsLoss(pos_weight=torch.tensor(neg / pos))``
    (printed with the finding; it makes the constant predictor 0.5 again, so the
    features must do the work, and the 0.5 threshold then means "more likely positive
    than not" at equal priors; subtract ln(pos_weight) from the logit for a calibrated
    probability), ``CrossEntropyLoss(weight=n / (K * counts))`` for K classes, or a
    ``WeightedRandomSampler`` with weights 1 / count of the row's class (every batch
    then holds the minority). Focal loss (gamma = 2) when the many easy negatives still
    dominate. Or keep the plain loss and tune the decision threshold on validation
    (around the base rate p, not 0.5). In every case report PR-AUC, recall at a fixed
    precision or per-class F1, never accuracy.
"""

from __future__ import annotations

from ...findings import Finding
from . import Context, check, num

MIN_SHAPE = 6  # from this many distinct integers, a quantity's shape is told from classes
MAX_CLASSES_PLAIN = 20  # up to this many, integers sparse in their range are still classes
RARE = 0.2  # a value under this share of the most common one is rare (the info ratio)


def not_classes(counts: dict, float_dtype: bool) -> str | None:
    """Why the label's values are not classes (a regression target, an id), or None."""
    keys = list(counts)
    nums = [k for k in keys if isinstance(k, (int, float)) and not isinstance(k, bool)]
    if len(nums) < len(keys):
        return None  # strings, booleans: classes
    if any(isinstance(k, float) and not k.is_integer() for k in nums):
        return "non-integer values (a regression target or soft labels)"
    vals = sorted(int(k) for k in nums)
    if float_dtype and len(vals) > 2 and vals != list(range(len(vals))):
        return "a float target with more than two values that are not 0..K-1"
    if len(vals) < MIN_SHAPE:
        return None
    if len(vals) > MAX_CLASSES_PLAIN and len(vals) < 0.5 * (vals[-1] - vals[0] + 1):
        return "integers sparse in their range (ids, codes, a quantity)"
    # A quantity (an age, a count, a rating): a block of common values with rare tails
    # at the ends of the range. The rare classes of a long-tailed label sit anywhere
    # among the common ones, and one dominant class is no block.
    cut = RARE * max(counts.values())
    cnt = [counts[v] for v in vals]  # 1 == 1.0: float keys are found too
    common = [i for i, c in enumerate(cnt) if c >= cut]
    rare = sum(1 for c in cnt if c < cut)
    inside = sum(1 for i in range(common[0] + 1, common[-1]) if cnt[i] < cut)
    if rare and len(common) >= 3 and inside <= 0.1 * rare:
        return "its rare values are the two ends of an integer range (a quantity's tails)"
    return None


def _single_class(name: str, top, total: int, evidence: dict) -> Finding:
    return Finding(
        name="class-imbalance", severity="warning",
        message=f"label `{name}` has a single class ({top!r}) in all {num(total)} rows: there is nothing to tell apart",
        location={"column": name}, evidence=[evidence],
        fix="check the split or the filter that produced this data (the other classes were dropped); "
            "a one-class problem is anomaly detection, not classification",
        confirm=f"df['{name}'].value_counts()",
    )


def _binary(low, top, pw: float, share: float, against: float, no_min: float, evidence: dict) -> tuple[str, str]:
    """Two classes: the message's tail and the fix (``pos_weight`` = negatives / positives,
    added to ``evidence``)."""
    evidence["pos_weight"] = round(pw, 4)
    tail = (f", and without pos_weight a BCE model predicts {low!r} at the 0.5 threshold only where the "
            f"features make it {against:.3g}x likelier than {top!r}; {no_min:.0%} of 32-row batches hold no {low!r}")
    pos_note = "" if str(low) in ("1", "True", "1.0") else f" (with {low!r} as the positive class)"
    fix = (f"`BCEWithLogitsLoss(pos_weight=torch.tensor({pw:.4g}))` (negatives / positives){pos_note}, "
           "or a `WeightedRandomSampler` (weight 1 / class count); or keep the loss and tune the "
           f"threshold on validation (near the base rate {share:.3g}, not 0.5); focal loss if easy "
           "negatives dominate; report PR-AUC / recall at fixed precision, not accuracy")
    return tail, fix


def _multiclass(k: int, ordered: list, total: int, evidence: dict) -> tuple[str, str]:
    """More classes: the message's tail and the fix (the rarest classes' loss weights,
    added to ``evidence``)."""
    evidence["weights"] = {str(c): round(total / (k * v), 4) for c, v in ordered[-5:]}
    fix = (f"`CrossEntropyLoss(weight=...)` with weight n / ({k} * count) per class, or a "
           "`WeightedRandomSampler` (weight 1 / class count); focal loss, or per-class thresholds / "
           "logit adjustment (subtract log prior) at prediction; report per-class recall / macro-F1, not accuracy")
    return f"; {k} classes", fix


@check("class-imbalance")
def class_imbalance(ctx: Context) -> list[Finding]:
    lab = ctx.profile.label
    if lab is None or lab.overflow or not lab.counts:
        return []
    name = ctx.label
    col = ctx.profile.columns.get(name)
    float_dtype = getattr(col, "integer", True) is False
    counts = dict(lab.counts)
    if float_dtype or any(isinstance(k, float) for k in counts):
        counts.pop("nan", None)  # a NaN label is not a class: data-nonfinite reports it
    if not counts or not_classes(counts, float_dtype):
        return []
    total = sum(counts.values())
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))
    (top, ntop), (low, nlow) = ordered[0], ordered[-1]
    k = len(counts)
    evidence = {"column": name, "counts": {str(c): v for c, v in ordered[:20]}, "classes": k}
    if k == 1:
        return [_single_class(name, top, total, evidence)]
    ratio = nlow / ntop
    warn = ctx.cfg.get("min_class_ratio", name)
    if ratio >= max(warn, ctx.cfg.get("info_class_ratio", name)):
        return []
    sev = "warning" if ratio < warn else "info"
    share = nlow / total
    against = 1 / ratio
    no_min = (1 - share) ** 32  # a 32-row batch without the rarest class
    evidence.update(rarest={"class": str(low), "rows": nlow, "share": round(share, 6)},
                    largest={"class": str(top), "rows": ntop}, ratio=round(ratio, 6),
                    constant_accuracy=round(ntop / total, 6),
                    batches_of_32_without_rarest=round(no_min, 4))
    ratio_text = f"1:{against:.3g}"
    msg = (f"label `{name}`: class {low!r} is {share:.2%} of rows ({num(nlow)} of {num(total)}), "
           f"{ratio_text} against class {top!r}; always predicting {top!r} is {ntop / total:.2%} accurate")
    if k == 2:
        tail, fix = _binary(low, top, ntop / nlow, share, against, no_min, evidence)
    else:
        tail, fix = _multiclass(k, ordered, total, evidence)
    msg += tail
    return [Finding(
        name="class-imbalance", severity=sev, message=msg,
        location={"column": name}, evidence=[evidence], fix=fix,
        confirm=f"df['{name}'].value_counts(normalize=True); per-class recall on validation at the 0.5 threshold",
    )]

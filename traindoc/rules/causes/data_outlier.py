"""data-outlier (TD202)."""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from .. import rule
from ..evidence import calm_jump, carried_grads, early_update, features, finding, lr_growth
from ..evidence.inputs import outlier_batches
from ..util import fmt, trailing_robust_z


@rule("data-outlier", needs=("loss",))
def data_outlier(run):
    """What it detects: one step whose loss (and gradient norm) jumps far outside the
    run's recent distribution (robust z above 50 and 20x the recent median) while the
    steps around it are calm, the signature of a batch that holds an extreme sample:
    a value in the wrong unit, a sequence 100x longer than the rest. Also a weak
    suspect when a calm run turns non-finite all at once. Not in a run that huge first
    updates, a rising learning rate or gradients never cleared (`.grad` stale on 60 % of
    the sampled steps) already throw around.

    Why it happens: unit or typing errors in a column, crawler/bot accounts with huge
    histories, uncapped sequence lengths, a corrupt record.

    Also without a spike: one column of the table the model is fed holds a value
    thousands of typical batch standard deviations from its batch's mean (the monitor's
    ``column-outlier`` event; healthy tables measured here stay under 40). A few
    data-entry artefacts (a heart rate of 10 000 000) in a column standardised with the
    data's own std inflate that std, squash every ordinary value of the column into a few
    thousandths, and the model silently loses the feature.

    Also without a spike: one column of a regression loss's target (MSE, L1, Huber) holds a
    value thousands of typical deviations from its batch's median (robust statistics: the
    median absolute deviation, which a few such rows per batch do not inflate; the
    monitor's ``target-outlier`` event, 1000x and up; Gaussian targets reach ~8): box sizes
    in pixels among fractions, a placeholder for missing.

    Also without a spike: a loss that stays thousands of times larger than anything the
    model's outputs can explain to the end of the run. For a mean loss of the usual kinds
    the loss is bounded by the outputs and the targets: L1 and Huber by |output| + |target|,
    MSE by their square, cross-entropy by twice the largest logit plus log(classes). The
    monitor records the model's largest output (``out/absmax``); a last-quarter median loss
    over max(|out|, |out|^2, 1) of 10 000 or more says the targets hold values the model
    never predicts: placeholders (1e9 for "missing"), a wrong unit. Healthy runs measured
    here stay under 2 (bench/real, 84 fixed programs); a summed loss (loss-reduction's
    evidence) is left out, and a loss that does not vary across batches (targets on a
    uniformly huge scale rather than a few extreme ones) only gets a warning.

    Also: the first onset of a gradient spike and three quarters of them (two or more,
    before the run went non-finite) came on batches whose largest input is 3x the typical
    batch's, on a table otherwise on a sane scale (the monitor records the inputs' |x|max
    every step); 0.75 when that many on such batches has a chance of 0.05 or less (binomial,
    at their share of the steps), else 0.6. Exploding-gradient and lr-too-high then defer.

    A spike and a column or target outlier together are one finding, the column's, at the
    spike's batch, 0.1 above the stronger of the two (the same rows read twice).

    How to confirm: the sample indices of the spiking step are in the run; look at
    their feature values and lengths against the column's P99.9
    (``traindoc data check`` reports length and value outliers).

    How to fix: cap or drop the outliers (clip at a high percentile, truncate sequences
    at P99.9), fix the unit, and keep the data check in CI.
    """
    f = features(run)
    heavy = outlier_batches(run)
    if heavy is not None:
        return [_heavy_finding(run, heavy)]
    spike = _spike(run, f)
    col = _column(run) or _target_column(run)
    jump = _spike_finding(run, f, *spike) if spike is not None else None
    if jump is not None and col is not None:
        # a loss spike and an extreme value in the table the model is fed (or in its targets):
        # two readings of the same rows (bench/real 383: boxes in raw pixels among fractions)
        return [finding("data-outlier", min(0.85, max(jump.confidence or 0.0, col.confidence or 0.0) + 0.1),
                        f"{col.message}; the loss jumped at step {jump.location['step']}",
                        location=jump.location,  # (the spike's batch: where to look for the rows)
                        evidence=col.evidence + jump.evidence, fix=col.fix, confirm=col.confirm)]
    if jump is not None or col is not None:
        return [jump or col]
    far = _targets_out_of_reach(run, f)
    if far is not None:
        return [far]
    from .nonfinite import calm_onset, half_model

    if f.first_bad is not None and calm_onset(f) and not half_model(f):
        return [finding(
            "data-outlier", 0.25,
            f"the loss went non-finite at step {f.first_bad} out of a calm run; an extreme sample (a huge value or "
            "sequence length) in that batch can overflow an op",
            location={"step": f.first_bad},
            evidence=[{"series": "loss", "step": f.first_bad, "value": "non-finite"}],
            fix="cap feature values and sequence lengths at a high percentile (P99.9)",
            confirm=f"compare the samples of step {f.first_bad} with the data's P99.9 (traindoc data check)",
        )]
    return []


def _spike(run, f) -> tuple[int, float, bool] | None:
    """The loss's largest one-step jump out of its recent distribution: (index into
    ``f.loss``, its robust z, whether the run was calm before it), or None, also when the
    learning rate was already throwing the run around."""
    v, st = f.loss, f.loss_steps
    if len(v) < 20:
        return None
    z, med, _ = trailing_robust_z(v, 50, 10)
    prev = np.concatenate([[np.inf], v[:-1]])
    big = (z > 50) & (v > 20 * np.abs(med)) & (v > 10 * np.abs(prev))  # one step, not a trend
    # a jump where another optimizer took over the steps is a new phase (a stage of a network
    # grown layer by layer, with a fresh output layer), not a batch
    for e in run.events():
        if e.get("kind") == "step-clock" and isinstance(e.get("data"), dict) and "optimizer" in e["data"]:
            big &= np.abs(st - int(e.get("step") or 0)) > 2
    if not big.any():
        return None
    i = int(np.argmax(np.where(big, z, -np.inf)))
    j = calm_jump(f, run)
    if j is None and (early_update(run) > 0.3 or lr_growth(run, upto=int(st[i])) > 3):
        return None  # a run already thrown around by its learning rate
    carried = carried_grads(run)
    if carried is not None and carried[0]:  # (stale on 60 % or more of the sampled steps)
        return None  # ... or by gradients never cleared: each update the sum of all so far (bench/real 365)
    return i, float(z[i]), j is not None


def _heavy_finding(run, d: dict) -> Finding:
    """The gradient's spikes began on batches holding an input far beyond the typical one."""
    first = d["onsets"][0]
    idx = run.batch_indices(first)
    loc = {"step": first}
    if idx is not None:
        loc["samples"] = [int(k) for k in idx[:64]]
    on = ", ".join(str(k) for k in d["heavy"][:6]) + (" ..." if len(d["heavy"]) > 6 else "")
    n, k = len(d["onsets"]), len(d["heavy"])
    return finding(
        "data-outlier", 0.75 if d["chance"] <= 0.05 else 0.6,
        f"{'all' if k == n else k} of the {n} gradient spikes began on batches holding an extreme input (steps {on}: "
        f"the batch's largest |x| {fmt(min(d['sizes']))}-{fmt(max(d['sizes']))} where a typical batch's is "
        f"{fmt(d['typical'])}); such batches are {d['heavy_share']:.0%} of the steps, so as many onsets landing "
        f"on them by chance has probability {d['chance']:.2g}: a few extreme rows throw the weights",
        location=loc,
        evidence=[{"series": "in/absmax", "spike_onsets": d["onsets"][:8], "typical": round(d["typical"], 3),
                   "heavy_share": round(d["heavy_share"], 3), "chance": round(d["chance"], 4)}],
        fix="find the rows with the extreme values among the step's samples (traindoc data check lists value "
            "outliers); drop them, fix their unit or cap the feature (P99.9), then standardise",
        confirm=f"train without the rows of step {first}'s batch that hold the extreme values: the spikes go",
    )


def _spike_finding(run, f, i: int, zi: float, calm: bool) -> Finding:
    v = f.loss
    step = int(f.loss_steps[i])
    idx = run.batch_indices(step)
    loc = {"step": step}
    if idx is not None:
        loc["samples"] = [int(k) for k in idx[:64]]
    # a single spike that the run does not shrug off is the classic outlier batch
    c = 0.75 if calm else 0.45
    return finding(
        "data-outlier", c,
        f"the loss jumped to {fmt(float(v[i]))} at step {step}, {fmt(zi)} robust deviations above the recent "
        "median, from a calm run: a batch with an extreme sample is the first suspect",
        location=loc,
        evidence=[{"series": "loss", "step": step, "value": float(v[i]), "robust_z": round(zi, 1)}],
        fix="find the extreme sample among the step's indices; cap/clip the feature or the sequence length "
            "(P99.9) or fix its unit; keep traindoc data check in CI",
        confirm=f"look at the samples of step {step} (traindoc data check reports value and length outliers)",
    )


COLUMN_RATIO = 1e4  # an error from here (the monitor records from 1e3; healthy tables here: <= 33)


def _column(run) -> Finding | None:
    ev = [e for e in run.events() if e.get("kind") == "column-outlier"]
    if not ev:
        return None
    d = ev[-1].get("data") or {}
    r = float(d.get("ratio", 0.0))
    c = 0.7 if r >= COLUMN_RATIO else 0.4
    j = d.get("column")
    return finding(
        "data-outlier", c,
        f"column {j} of the model's input holds a value {fmt(d.get('deviation'))} from its batch's mean while its "
        f"typical spread within a batch is {fmt(d.get('spread'))} ({r:.3g}x): an extreme value (a unit or "
        "data-entry error); if the column was standardised with the data's std, that std is inflated and every "
        "ordinary value of the column is squashed to nearly the same number",
        location={"step": ev[-1].get("step")},
        evidence=[{"events": "column-outlier", "column": j, "ratio": round(r, 1),
                   "batches_with_it": d.get("batches_with_it"), "batches": d.get("batches")}],
        fix=f"drop or cap the extreme values of column {j} (clip at a high percentile, fix the unit) before computing "
            "normalisation statistics, or scale with robust statistics (median, IQR)",
        confirm=f"print the largest values of column {j} in the raw data and its std with and without them",
    )


def extreme_targets(run) -> bool:
    """A ``target-outlier`` event of a squared-error loss (recorded from 1e3x the column's
    typical deviation, 30x the most healthy tables reach): rows whose error, and so whose
    gradient, is a thousand times the others' or more, which explains gradient spikes of 30x
    (exploding-gradient and the learning rate defer to it; bench/real 441: 5e3x, forces of
    strained conformers)."""
    return any(e.get("kind") == "target-outlier" and float((e.get("data") or {}).get("ratio", 0.0)) >= 1e3
               and (e.get("data") or {}).get("loss_function") not in ("l1_loss", "smooth_l1_loss", "huber_loss")
               for e in run.events())


def _target_column(run) -> Finding | None:
    ev = [e for e in run.events() if e.get("kind") == "target-outlier"]
    if not ev:
        return None
    d = ev[-1].get("data") or {}
    r, j, fn = float(d.get("ratio", 0.0)), d.get("column"), d.get("loss_function", "the loss")
    share = f"{d.get('batches_with_it')} of the first {d.get('batches')} batches"
    # an L1-type loss bounds each row's gradient: extreme targets pull no harder than any
    # other row (pytorch/examples' regression: a 4th-degree polynomial of Gaussian inputs
    # under smooth_l1_loss), so only the unit question remains, a weak lead
    robust = fn in ("l1_loss", "smooth_l1_loss", "huber_loss")
    return finding(
        "data-outlier", 0.3 if robust else 0.6 if r >= 10 * COLUMN_RATIO else 0.5,
        f"column {j} of the {fn} target holds a value {fmt(d.get('deviation'))} from its batch's median while its "
        f"typical deviation is {fmt(d.get('spread'))} ({r:.3g}x; such values in {share}): labels in another unit "
        "or a placeholder"
        + ("? The loss already bounds each row's gradient, so they do not outweigh ordinary rows; heavy-tailed "
           "targets can be honest (a power of the inputs)" if robust else
           "; a squared or absolute error on them outweighs every ordinary sample and drags the predictions for "
           "ordinary ones"),
        location={"step": ev[-1].get("step")},
        evidence=[{"events": "target-outlier", "column": j, "ratio": round(r, 1),
                   "batches_with_it": d.get("batches_with_it"), "batches": d.get("batches")}],
        fix=f"find the rows whose target column {j} is extreme (a unit or annotation-tool mismatch, a placeholder for "
            "missing) and fix or drop them" + ("" if robust else "; a robust loss (Huber, smooth L1) limits their pull "
                                                   "meanwhile"),
        confirm=f"print the largest values of target column {j} in the labels and the rows they come from",
    )


REACH_RATIO = 1e4  # loss / max(|out|, |out|^2, 1); fixed programs here: <= 1.04, 237 (1e9 targets): 1.7e5


def _targets_out_of_reach(run, f) -> Finding | None:
    """The last quarter's median loss far beyond what the model's outputs can explain."""
    from .loss_reduction import sum_evidence

    if not run.has("out/absmax") or len(f.loss) < 40:
        return None
    out = run.series("out/absmax")
    lo = f.loss_steps[0] + 0.75 * (f.loss_steps[-1] - f.loss_steps[0])
    lv = f.loss[(f.loss_steps >= lo) & np.isfinite(f.loss)]
    half = f.loss_steps[0] + 0.5 * (f.loss_steps[-1] - f.loss_steps[0])  # (sampled steps thin out)
    ov = out.values[(out.steps >= half) & np.isfinite(out.values)]
    if len(lv) < 10 or len(ov) < 2:
        return None
    loss, a = float(np.median(lv)), float(np.median(ov))
    ratio = loss / max(a, a * a, 1.0)
    if ratio < REACH_RATIO or sum_evidence(run, f) is not None:
        return None
    spread = float(np.percentile(lv, 90) / max(np.percentile(lv, 10), 1e-30))
    return finding(
        "data-outlier", 0.6 if spread >= 1.5 else 0.3,
        f"the loss stays at {fmt(loss)} to the end (median of the last quarter) while the model's largest output is "
        f"{fmt(a)}: {ratio:.3g}x more than any output can explain, so some targets lie far outside what the model "
        f"predicts (placeholder values such as 1e9 for missing, a wrong unit); the loss varies {spread:.2g}x between "
        "batches (P90/P10): " + ("a few extreme targets in some batches" if spread >= 1.5 else
                                 "as steady as targets on a uniformly huge scale would be"),
        location={"step": int(lo)},
        evidence=[{"series": "loss", "median_last_quarter": fmt(loss), "p90_over_p10": round(spread, 2)},
                  {"series": "out/absmax", "median_last_half": fmt(a), "out_of_reach": fmt(ratio)}],
        fix="find the targets far outside the predicted range (placeholders, a unit error) and fix or drop them; "
            "if every target is on a huge scale, standardise the targets (and undo it at prediction time)",
        confirm="print the largest targets of a few batches next to the model's outputs for them",
    )

"""loss-reduction (TD402)."""

from __future__ import annotations

import math

import numpy as np

from .. import rule
from ..evidence import Features, features, finding, focus_rank
from ..util import fmt


def sum_evidence(run, f: Features) -> dict | None:
    """Is the first loss the size of a per-sample loss times the number of samples (or
    tokens) in the step, or (under an optimizer whose step grows with the gradient) the sum
    of many loss-function calls? Returns the evidence, or None."""
    terms = summed_terms(run) if f.opt_class not in ADAPTIVE else None  # (Adam: the sum does not size the step)
    if terms is not None:
        return terms
    graph = graph_sum(run) if f.opt_class in PLAIN_GRADIENT else None
    if graph is not None:
        return graph
    first = float(f.loss[0]) if len(f.loss) else f.loss_first  # at init: chance-level loss per target
    if not math.isfinite(first) or first <= 0:
        return None
    if f.labels and f.n_classes >= 2:
        steps = max(1, len(f.loss_steps) + (1 if f.first_bad is not None else 0))
        per_step = sum(f.labels.values()) / max(1, f.steps or steps)
        chance = math.log(f.n_classes)
        # a summed loss at initialisation is about (targets) x (a per-target loss no lower than
        # the labels' own entropy: an untrained model does not beat the prior): a first loss
        # under half of that per target is a mean (a saturated BCE near its clamp at 100 per
        # element reaches 47 that way: deeplearning.ai's x10 init, bench/real 172)
        floor = 0.5 * f.prior_entropy / chance if math.isfinite(f.prior_entropy) and f.prior_entropy > 0 else 0.2
        if per_step >= 8 and first > 5 * chance:
            ratio = first / (per_step * chance)
            if max(0.2, floor) <= ratio <= 5:
                return {"series": "loss", "first": fmt(first), "targets_per_step": round(per_step),
                        "chance_per_target": fmt(chance), "ratio": fmt(ratio)}
        return None
    b = f.batch
    if math.isfinite(b) and b >= 16 and first > 50:
        per = first / b
        if 0.05 <= per <= 20:
            return {"series": "loss", "first": fmt(first), "batch": int(b), "per_sample": fmt(per)}
    return None


# A sum whose gradient is this many times the mean's: a per-element loss summed over a batch
# of 16 x 32 x 32 pixels is 16 384x (bench/real 155, 210, 304); summing a batch of 64 samples 64x.
GRAPH_SUM = 64


def graph_sum(run) -> dict | None:
    """The loss's own graph (``loss_graph``, read by the monitor at the first backward): its
    outermost reduction is a sum over ``terms`` elements, times any constant factor, that is
    :data:`GRAPH_SUM` or more times the mean: structure, whatever the loss's value."""
    g = run.meta.get("loss_graph")
    if not isinstance(g, dict) or g.get("reduction") != "sum":
        return None
    gain = float(g.get("terms") or 0) * abs(float(g.get("factor") or 0))
    if gain < GRAPH_SUM:
        return None
    return {"loss_graph": g.get("op"), "terms": int(g.get("terms") or 0), "factor": fmt(g.get("factor")),
            "gradient_x_mean": fmt(gain)}


def summed_terms(run) -> dict | None:
    """One backward a step of the sum of many loss-function calls (a loss per time step
    added up, char-rnn's criterion per step): ``loss/terms`` calls whose backpropagated
    total is about their count x their mean (``loss/terms_scale`` ~ 1; 1/T when divided)."""
    got = _unscaled_sum(run, "loss/terms", "loss/terms_scale")
    if got is None:
        return None  # averaged over the terms (scale ~ 1/T), weighted, or not recorded
    k, scale, _ = got
    return {"series": "loss/terms", "median": k, "terms_scale": round(scale, 3),
            "note": f"the backpropagated loss is the sum of {k:g} loss-function values a step"}


def _unscaled_sum(run, count: str, ratio: str) -> tuple[float, float, int] | None:
    """(median of ``count``, median of ``ratio``, its first step) when the backpropagated
    loss is the plain sum of what the loss functions returned (``ratio`` within 0.8-1.25,
    not 1/k): the shared reading of ``accum/*`` and ``loss/terms*``."""
    rank = focus_rank(run)
    if not (run.has(count, rank) and run.has(ratio, rank)):
        return None
    kb, sc = run.series(count, rank), run.series(ratio, rank)
    ok = np.isfinite(sc.values) & (sc.values > 0)
    if ok.sum() < 2:
        return None
    scale = float(np.median(sc.values[ok]))
    if not 0.8 <= scale <= 1.25:
        return None
    return float(np.median(kb.values)), scale, int(sc.steps[ok][0])


@rule("loss-reduction", needs=("loss",))
def loss_reduction(run):
    """What it detects: a loss that is summed over the batch (or the tokens) instead of
    averaged: its first value is about (samples per step) x (a per-sample loss), e.g. 32
    x 24 tokens x log(20) for a summed cross-entropy, and the run oscillates or diverges
    at a learning rate that is normal for a mean loss.

    Why it happens: ``reduction="sum"``, ``.sum()`` over a per-element loss, or a custom
    loss that forgets to divide by the batch or the number of tokens; the gradient then
    grows with batch and sequence size and the effective learning rate with it.

    Also: gradient accumulation over k micro-batches whose losses are not divided by k
    (the monitor compares what is backpropagated with what the loss functions returned,
    ``accum/scale``: 1/k when averaged, 1 when not), which applies k times the mean
    gradient per step; and one loss made of 8 or more loss-function calls added up (a
    criterion per time step, char-rnn's summed sequence loss) and never divided by their
    number (``loss/terms``, ``loss/terms_scale``: 1 when summed, 1/T when averaged), under
    an optimizer whose step grows with the gradient (not Adam & co.).

    And, whatever the loss's value: its autograd graph, read at the first backward, ends in a
    sum over 64 or more elements times any constant (``err.sum()``, ``reduction="sum"``, a
    per-pixel loss summed over the frames), under plain SGD, whose step grows with the
    gradient (each step is that many times the mean's), in a run that went non-finite,
    whose loss fell by less than 20 %, or whose loss ended above its step-0 value.

    How to confirm: print the loss divided by the batch size (and sequence length): it is
    a normal per-sample value; rerun with reduction="mean": the same learning rate trains.

    How to fix: average the loss (reduction="mean", or divide by the number of
    targets), or scale the learning rate down by the same factor on purpose.
    """
    f = features(run)
    trouble = f.first_bad is not None or not math.isfinite(f.rel_drop) or f.rel_drop < 0.5 or f.noise > 0.2
    acc = _accumulated(run)
    if acc is not None:
        return _accumulation_finding(f, acc, trouble)
    ev = sum_evidence(run, f)
    if ev is None:
        return []
    c = 0.8 if trouble else 0.4
    if "terms_scale" in ev:
        if not trouble:
            return []  # a sum of per-step losses is a choice of scale (the lr was tuned for it) until the run fails
        return [finding(
            "loss-reduction", c,
            f"the loss backpropagated each step is the sum of {ev['median']:g} loss-function values (one per time "
            f"step or term), never divided by their number: its gradient is {ev['median']:g}x that of the mean, "
            "and the run " + ("went non-finite" if f.first_bad is not None else "failed to settle"),
            evidence=[ev],
            fix=f"divide the summed loss by the number of terms ({ev['median']:g}, e.g. the sequence length) before "
                "backward(), or lower the learning rate by that factor on purpose",
            confirm="print the loss you backpropagate next to one loss-function value: it must be their mean",
        )]
    from .lr_too_high import _killed_units  # (lr_too_high imports this module)

    above_init = _ended_above_init(f)
    killed = _killed_units(run) if "loss_graph" in ev else None  # steps that large killed a ReLU layer (420)
    if "loss_graph" in ev and not (f.first_bad is not None or not math.isfinite(f.rel_drop) or f.rel_drop < 0.2
                                   or above_init or killed is not None):
        # a summed loss the learning rate was tuned for is a choice of scale until the run blows up
        # or does not learn (a slow or noisy run is not enough: fine-tunes and RL are both)
        return []
    trouble = trouble or above_init or killed is not None
    c = 0.8 if trouble else 0.4
    op = "" if ev.get("loss_graph") == "sum" else f" ({ev.get('loss_graph')} with reduction='sum')"
    said = (f"the loss backpropagated is a sum{op} over {ev['terms']:,} elements, so its gradient is "
            f"{ev['gradient_x_mean']}x that of their mean under {f.opt_class or 'the optimizer'}, whose step grows with it,"
            if "loss_graph" in ev else
            f"the loss starts at {fmt(f.loss_first)}, the size of a summed (not averaged) loss over the step's samples")
    return [finding(
        "loss-reduction", c,
        said + (" and the run then " + ("went non-finite" if f.first_bad is not None else
                                        f"lost the ReLU layer {killed['series'][4:-5]} (alive at the start, dead from "
                                        f"step {killed['dead_from_step']} under steps of "
                                        f"{killed['update_ratio_while_dying']} of the weights' norm)"
                                        if killed is not None else
                                        f"ended above its step-0 loss {fmt(float(f.loss[0]))} (the untrained model's)"
                                        if above_init else "failed to settle") if trouble else ""),
        evidence=[ev],
        fix='average the loss (reduction="mean", or divide by the number of samples/tokens), or scale the learning rate to match',
        confirm="rerun with the mean loss at the same learning rate: it trains; loss / batch size is a normal per-sample value",
    )]


def _accumulation_finding(f, acc: tuple, trouble: bool) -> list:
    """Gradient accumulation over k micro-batches whose losses were not divided by k."""
    k, scale, at = acc
    adaptive = f.opt_class in ADAPTIVE  # Adam & co. divide the gradient by its own scale
    return [finding(
        "loss-reduction", 0.3 if adaptive else 0.85 if trouble else 0.4,
        f"gradient accumulation over {k:g} micro-batches without dividing the loss: what was backpropagated is "
        f"{scale:.2f}x the sum of the loss functions' values (1/{k:g} when averaged), so each step applies {k:g}x "
        "the mean gradient" + (f" ({f.opt_class} normalises the gradient's scale, so this mostly changes its "
                               "epsilon and weight decay balance)" if adaptive else
                               " and the run " + ("went non-finite" if f.first_bad is not None else "failed to settle")
                               if trouble else ""),
        location={"step": at},
        evidence=[{"series": "accum/backwards", "median": k}, {"series": "accum/scale", "median": round(scale, 3)}],
        fix=f"divide each micro-batch loss by the accumulation steps ({k:g}) before backward(), or lower the "
            "learning rate by that factor on purpose",
        confirm="print the loss you backpropagate next to the loss function's value: it must be 1/k of it",
    )]


def _ended_above_init(f) -> bool:
    """The training loss of the last quarter (its median) is above the loss of step 0, the
    untrained model's: the run learned nothing in the end. A median over the first steps
    would not tell: a summed loss's first updates throw the weights off and the loss jumps
    80x to 60 000x within them, so the end looks like a fall from there (bench/real 397, 399)."""
    n = len(f.loss)
    return n >= 20 and math.isfinite(float(f.loss[0])) and float(np.median(f.loss[-max(1, n // 4):])) > float(f.loss[0])


# optimizers whose step is the gradient times the rate: a sum's scale is the step's (the graph
# reading fires only for these: adaptive ones come in too many names, FusedAdam, AdamW8bit,
# Prodigy, ZeroRedundancyOptimizer wrapping anything)
PLAIN_GRADIENT = frozenset({"SGD", "ASGD"})
# optimizers whose step does not grow with the gradient's scale
ADAPTIVE = frozenset({"Adam", "AdamW", "Adamax", "NAdam", "RAdam", "RMSprop", "Adagrad", "Adadelta", "SparseAdam",
                      "Adafactor", "Lion", "LAMB", "Lamb"})


def _accumulated(run) -> tuple[float, float, int] | None:
    """(micro-batches per step, backpropagated / loss-function value, a step) when the run
    accumulated gradients over >= 2 backwards per step without dividing the loss."""
    got = _unscaled_sum(run, "accum/backwards", "accum/scale")
    if got is None or got[0] < 2 or _one_backward_per_model(run):
        return None
    return got  # (averaged: scale ~ 1/k)


def _one_backward_per_model(run) -> bool:
    """Two or more optimizers over disjoint tensors whose first backwards each reach one of
    them only (the monitor's ``loss_reach`` meta): two models trained side by side in one loop
    (MorvanZhou's dropout tutorial steps an overfitting net and a dropout net on one batch),
    each loss backpropagated once, not micro-batches accumulated into one model."""
    doc = run.meta.get("loss_reach")
    if not isinstance(doc, dict):
        return False
    reach = [set(d.get("reach") or ()) for d in doc.values() if isinstance(d, dict) and not d.get("overlaps")]
    reach = [r for r in reach if r]
    return len(reach) >= 2 and all(a.isdisjoint(b) for i, a in enumerate(reach) for b in reach[i + 1:])
"""params-not-updated (TD604)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import features, finding, focus_rank, sampled
from ..util import fmt


def _counts(run) -> tuple[int, int, int]:
    """(trainable parameters of the models, parameters in the optimizers, tensors in the
    optimizers) from the run's metadata."""
    trainable = sum(int(m.get("trainable", 0)) for k, m in run.meta.items()
                    if k.startswith("model/") and isinstance(m, dict))
    in_opt = n_tensors = 0
    for k, o in run.meta.items():
        if k.startswith("optimizer/") and isinstance(o, dict) and "same_params_as" not in o:
            for g in o.get("groups", []):
                # tensors with requires_grad=False when training began were frozen on
                # purpose (fine-tuning passes model.parameters() with a frozen backbone)
                in_opt += int(g.get("numel", 0)) - int(g.get("numel_frozen", 0))
                n_tensors += int(g.get("n_params", 0)) - int(g.get("n_frozen", 0))
    return trainable, in_opt, n_tensors


@rule("params-not-updated", needs=("loss",))
def params_not_updated(run):
    """What it detects: parameters that never change: trainable parameters of the model
    that no optimizer holds (or that the model calls without owning them: layers kept in a
    plain list, or weights made with ``requires_grad=True`` instead of ``nn.Parameter``
    that the gradient reaches on every step and no optimizer holds), an optimizer that holds them and never steps (256 backward passes, no
    ``step()``, a loss that does not fall), optimizer parameters that never receive a gradient (cut off
    from the graph by .detach(), .data, torch.no_grad or an unused branch), or
    parameters whose update is exactly zero on every sampled step.

    Why it happens: an optimizer built from a sub-module (model.head.parameters()), a
    layer replaced after the optimizer was created, a stray .detach() or .item(),
    requires_grad=False left on after a freeze.

    Parameters that had ``requires_grad=False`` when training began are frozen on purpose
    and left out, even when they sit in the optimizer; an optimizer that holds only such
    frozen tensors while trainable ones exist elsewhere (a classifier owned by the loss
    object, SoftmaxLoss-style) holds none of them. Parameters whose gradient arrives
    and is exactly zero on every sampled step are in the graph and the optimizer: the
    gradient vanishes numerically (a float16 loss that overflows or underflows to a
    constant), so the finding is only a warning that points at that cause.

    How to confirm: compare each parameter before and after a few steps
    (traindoc records update_ratio/<param> on sampled steps); list the parameters with
    ``p.grad is None`` after backward().

    How to fix: build the optimizer from model.parameters() after the model is final;
    remove the detach; unfreeze what should train.
    """
    f = features(run)
    reasons, share = _unreached(run)
    frozen, moved = _never_updated(run)
    if moved and frozen:
        share = max(share, len(frozen) / moved)
        reasons.append({"series": "update_ratio/*", "never_updated": frozen[:8]})
    if not reasons or share < 0.1:
        return []
    c, zero_init = _confidence(run, f, reasons, share, frozen)
    if zero_init:
        reasons.append(zero_init)
    return [finding(
        "params-not-updated", c, _message(share, reasons),
        location={"param": frozen[0]} if frozen else {},
        evidence=reasons,
        fix="keep layers in nn.ModuleList/nn.ModuleDict (not a Python list/dict); build the optimizer from "
            "model.parameters() once the model is final; remove .detach()/.data on the path to the loss; unfreeze "
            "what should train",
        confirm="after loss.backward(), list the parameters whose .grad is None; compare weights before/after 10 steps",
    )]


def _unreached(run) -> tuple[list[dict], float]:
    """(evidence, share of the parameters) of trainable parameters no optimizer holds and
    of optimizer tensors no gradient reaches."""
    trainable, in_opt, n_tensors = _counts(run)
    reasons, share = [], 0.0
    idle = (run.meta.get("step_clock") or {}).get("idle_optimizers")
    f = features(run)
    stepped = any(k.startswith("optimizer/") for k in run.meta)  # written at an optimizer's first step
    if idle and not stepped and not (np.isfinite(f.rel_drop) and f.rel_drop >= 0.3):
        # an optimizer holds the model, backward() ran hundreds of times, step() never did,
        # and the loss did not fall (a hand-written update would have moved it)
        share = 1.0
        reasons.append({"meta": "step_clock", "idle_optimizers": idle, "backwards_without_step": run.meta.get("steps")})
    orphans = [e["data"] for e in run.events() if e["kind"] == "unregistered-module" and isinstance(e.get("data"), dict)]
    if orphans:
        # layers the model calls but does not own: outside model.parameters(), so outside
        # the optimizer and the trainable count above
        values = sum(int(o.get("values", 0)) for o in orphans)
        share = max(share, values / max(1, values + trainable))
        classes = sorted({str(o.get("class")) for o in orphans})
        reasons.append({"events": "unregistered-module", "modules": len(orphans), "classes": classes[:4],
                        "values": values})
    stray = _stray_weights(run, f)
    if stray is not None:
        share = max(share, stray["values"] / max(1, stray["values"] + trainable))
        reasons.append(stray)
    opt_ev = _optimizer_short(run, trainable, in_opt)
    if opt_ev is not None:
        share = max(share, opt_ev.pop("share"))
        reasons.append(opt_ev)
    fw = _weights_all_frozen(run)
    if fw:
        share = max(share, 0.9)
        reasons.append(fw)
    rank = focus_rank(run)
    gt = run.series("grad_tensors", rank).values if run.has("grad_tensors", rank) else np.array([])
    gn = sampled(run, "grad_norm/")
    if gt.size and n_tensors and np.nanmax(gt) == 0:
        # no optimizer tensor had a gradient on any sampled step: the loss that is
        # backpropagated does not reach them (a loss rebuilt from .item(), a second model)
        share = 1.0
        reasons.append({"series": "grad_tensors", "tensors_with_gradient": 0, "tensors_in_optimizer": n_tensors,
                        "steps": int(gt.size)})
    elif gn and n_tensors:
        with_grad = len(gn)
        last = _last_phase(run)
        if last is not None:
            # one optimizer took over from another (a network grown stage by stage, each stage
            # with a fresh optimizer): the earlier ones' tensors (old output layers) are gone
            start, opt = last
            o = run.meta.get(f"optimizer/{opt}") or {}
            n_tensors = sum(int(g.get("n_params", 0)) - int(g.get("n_frozen", 0)) for g in o.get("groups", []))
            with_grad = sum(1 for sr in gn.values() if (sr.steps >= start).any())
        if with_grad < n_tensors:
            share = max(share, 1 - with_grad / n_tensors)
            reasons.append({"series": "grad_norm/*", "tensors_with_gradient": with_grad, "tensors_in_optimizer": n_tensors})
    return reasons, share


def _stray_weights(run, f) -> dict | None:
    """Tensors the loss's gradient reaches on every one of the first backwards, the same
    objects each time, that no optimizer holds (``stray_leaves``): weights made with
    ``requires_grad=True`` instead of ``nn.Parameter``. A tensor as long as the batch is an
    input that asks for its gradient (a full-batch ``X``, an adversarial example): left out."""
    d = run.meta.get("stray_leaves")
    if not isinstance(d, dict):
        return None
    b = int(f.batch) if np.isfinite(f.batch) else -1
    shapes = [s for s in d.get("shapes") or () if len(s) >= 1 and s[0] != b]
    values = sum(int(np.prod(s)) for s in shapes)
    return {"meta": "stray_leaves", "tensors": len(shapes), "values": values, "shapes": shapes[:4]} if values else None


def _optimizer_short(run, trainable: int, in_opt: int) -> dict | None:
    """Evidence (with its ``share``) that the optimizers hold too few of the trainable values:
    under 90 % of them; none at all where optimizers were recorded holding only frozen
    tensors (a classifier owned by the loss object: bench/real 386); or a few values short
    that add up exactly to whole modules (a head and a CRF built outside the optimizer's
    groups: HVPNeT, bench/real 183: those never train, however small their share)."""
    only_frozen = in_opt == 0 and any(int(g.get("numel", 0)) > 0 for k, o in run.meta.items()
                                      if k.startswith("optimizer/") and isinstance(o, dict) for g in o.get("groups", []))
    ev = {"meta": "optimizer", "params_in_optimizer": in_opt, "trainable_in_model": trainable}
    if trainable and (in_opt or only_frozen) and in_opt < 0.9 * trainable:
        missing = _modules_summing_to(run, trainable - in_opt) if only_frozen else []
        return {**ev, **({"missing_modules": missing} if missing else {}), "share": 1 - in_opt / trainable}
    if trainable and 0 < in_opt < trainable:
        missing = _modules_summing_to(run, trainable - in_opt)
        if missing:
            return {**ev, "missing_modules": missing, "share": 0.5}
    return None


def _last_phase(run) -> tuple[int, int] | None:
    """(step, optimizer index) of the last hand-over of the steps to another optimizer
    (the monitor's ``step-clock`` event: the previous one stopped stepping), or None."""
    ev = [e for e in run.events() if e.get("kind") == "step-clock" and isinstance(e.get("data"), dict)
          and isinstance(e["data"].get("optimizer"), int)]
    return (int(ev[-1]["step"]), ev[-1]["data"]["optimizer"]) if ev else None


def _weights_all_frozen(run) -> dict | None:
    """Evidence when a model trains some tensors but none of its weight matrices (every
    2-D+ parameter has requires_grad=False, the output layer's included): a frozen backbone
    keeps its head trainable, and bias-only tuning (BitFit) its classifier, so this is a
    weight created with requires_grad=False by mistake (bench/real 159)."""
    for k, m in run.meta.items():
        if not (k.startswith("model/") and isinstance(m, dict)) or "trainable_weights" not in m:
            continue
        weights = [r for r in m.get("frozen", []) if len(r) >= 3 and int(r[1]) >= 2]
        if len(weights) >= 2 and m["trainable_weights"] == 0 and int(m.get("trainable", 0)) > 0:
            return {"frozen_weights": len(weights), "values": sum(int(r[2]) for r in weights),
                    "names": [str(r[0]) for r in weights[:3]], "trainable": int(m["trainable"])}
    return None


def _modules_summing_to(run, n: int, most: int = 3) -> list[str]:
    """The names of at most ``most`` modules of the recorded models whose own parameter
    counts add up to exactly ``n`` (the smallest such set), else []."""
    from itertools import combinations
    mods = [(str(m[0]), int(m[2])) for k, meta in run.meta.items() if k.startswith("model/") and isinstance(meta, dict)
            for m in meta.get("modules", []) if len(m) >= 3 and m[0] and 0 < int(m[2]) <= n]
    if len(mods) > 200:
        return []  # (a big model: too many subsets to make an exact match mean anything)
    for k in range(1, most + 1):
        hits = [c for c in combinations(mods, k) if sum(v for _, v in c) == n]
        if len(hits) == 1:
            return [name for name, _ in hits[0]]
        if hits:
            return []  # ambiguous
    return []


def _never_updated(run) -> tuple[list[str], int]:
    """(the parameters whose update is exactly 0 on every sampled step after the first,
    the number of parameters with recorded updates)."""
    ur = sampled(run, "update_ratio/")
    return [p for p, s in ur.items() if len(s.values) >= 2 and np.all(s.values[1:] == 0)], len(ur)


def _confidence(run, f, reasons: list[dict], share: float, frozen: list[str]) -> tuple[float, dict | None]:
    """The confidence, and the evidence of a zero init when that, not the graph or the
    optimizer, is why the parameters do not move (bad-init then names it)."""
    from .bad_init import zero_stuck

    stalled = not np.isfinite(f.rel_drop) or f.rel_drop < 0.5
    c = 0.4 + 0.4 * min(share, 1.0) + (0.15 if stalled else 0.0)
    if any(r.get("events") == "unregistered-module" or r.get("meta") == "stray_leaves" for r in reasons) \
            and share >= 0.1:
        c = max(c, 0.75)  # seen directly: the forward runs layers no optimizer can reach
    if any("idle_optimizers" in r for r in reasons):
        c = max(c, 0.9)  # seen directly: the optimizer exists and never steps
    # A bias whose gradient is exactly 0 is harmless when something downstream cancels it (a
    # difference of two embeddings, a norm that subtracts the mean): the layer still learns.
    if frozen and all(p.endswith("bias") for p in frozen) and len(reasons) == 1:
        c = min(c, 0.3)
    zeros = set(zero_stuck(run))
    if frozen and zeros and set(frozen) <= zeros and len(reasons) == 1:
        return min(c, 0.45), {"param_norm": "exactly 0 on every sampled step", "params": sorted(zeros)[:4]}
    # Moved on the first update, then never again: the optimizer holds them and a gradient
    # reached them; the first step was so large (update ratio ~1, not 1e-3) that the units
    # saturated or the loss hit a clamp, and every gradient since is exactly 0. A summed BCE
    # at lr 1 does that (bench/real 113, 174): the cause is the step size, not these tensors.
    ur = sampled(run, "update_ratio/")
    firsts = [float(ur[p].values[0]) for p in frozen if p in ur and len(ur[p].values)]
    if frozen and len(reasons) == 1 and len(firsts) == len(frozen) and min(firsts) > 0:
        return min(c, 0.3), {"stuck_after": "moved on the first sampled update, exactly 0 since",
                             "first_update_ratio": fmt(max(firsts))}
    # Never moved, and a gradient reached every one of them, exactly 0 on every sampled step:
    # they are in the graph and in the optimizer; the loss's gradient vanishes numerically
    # (a float16 loss that under/overflows to a constant: bench/real 220, 244, 245), which
    # the cause of that vanishing names, not this one.
    gn = sampled(run, "grad_norm/")
    seen = [gn[p].values for p in frozen if p in gn and len(gn[p].values)]
    if not frozen or len(reasons) != 1 or len(seen) != len(frozen):
        return c, None
    if all(np.all(v == 0) for v in seen):
        half = next((e.get("message", "") for e in run.events() if e.get("kind") == "autocast"
                     and "float16" in str(e.get("message", ""))), "")
        return min(c, 0.3), {"zero_gradient": "exactly 0 on every sampled step", "autocast": half}
    # A gradient arrives, non-zero on every sampled step, yet the update is exactly 0: lr * g
    # is below the float32 spacing of the weights (SGD on a gradient 1e-9 of the top layer's:
    # eleven sigmoid layers, bench/real 278). The gradient vanished; vanishing-gradient names it.
    if all(np.all(v > 0) for v in seen):
        return min(c, 0.2), {"tiny_gradient": fmt(max(float(np.max(v)) for v in seen))}
    return c, None


def _message(share: float, reasons: list[dict]) -> str:
    named = next((r["missing_modules"] for r in reasons if r.get("missing_modules")), None)
    head = f"{', '.join(named)} never change" if named else "the model's weights never change" if any(
        "frozen_weights" in r for r in reasons) else f"{share:.0%} of the trainable parameters never change"
    return head + ": " + "; ".join(
        "every weight matrix of the model ({frozen_weights} tensors, {values} values: {n}) has requires_grad=False "
        "while its other {trainable} values train: only biases/norms learn, on random features".format(
            n=", ".join(r["names"]), **r) if "frozen_weights" in r else
        "{opt} holds the model's parameters, but its step() was never called in {n} backward passes".format(
            opt=" and ".join(r["idle_optimizers"]), n=r.get("backwards_without_step") or "hundreds of")
        if "idle_optimizers" in r else
        "the model's forward calls {modules} layer(s) ({classes}, {values} values) that are not its submodules "
        "(a plain Python list or dict instead of nn.ModuleList/ModuleDict): model.parameters() does not "
        "include them, so no optimizer holds them".format(modules=r["modules"], classes=", ".join(r["classes"]),
                                                           values=r["values"]) if "modules" in r else
        "{tensors} tensor(s) ({values} values, shapes {shapes}) get the loss's gradient on every step but no "
        "optimizer holds them: made with requires_grad=True instead of nn.Parameter (kept in a plain list), so "
        "model.parameters() never yields them".format(**r) if r.get("meta") == "stray_leaves" else
        "the optimizer holds {params_in_optimizer} of {trainable_in_model} trainable values".format(**r)
        + (": the missing ones are exactly those of {} (built but never given to the optimizer)".format(
            ", ".join(r["missing_modules"])) if r.get("missing_modules") else "") if "meta" in r
        else "{tensors_with_gradient} of {tensors_in_optimizer} optimizer tensors get a gradient".format(**r)
        if "tensors_with_gradient" in r and "steps" not in r else
        "no optimizer tensor got a gradient on any of {steps} sampled steps".format(**r)
        if "steps" in r else
        f"their values are exactly 0 throughout ({', '.join(r['params'][:3])}): a zero init, see bad-init"
        if "param_norm" in r else
        f"but they moved on the first update (update ratio up to {r['first_update_ratio']}, healthy ~1e-3) and their "
        "gradient has been exactly 0 since: a first step that large saturates the units or a clamped loss, so look "
        "at the step size (learning rate, a summed loss)" if "stuck_after" in r else
        "their gradient arrives and is exactly 0 on every sampled step: they are in the graph and the optimizer, "
        "the loss's gradient vanishes on the way" + (
            f" (autocast {r['autocast']}: a loss or gradient that overflows or underflows float16 becomes a "
            "constant, see fp16-overflow / fp16-underflow)" if r.get("autocast") else "") if "zero_gradient" in r else
        f"their gradient arrives, non-zero, but at most {r['tiny_gradient']}: the update rounds to nothing next to the "
        "weights (a gradient that vanished on the way down, see vanishing-gradient)" if "tiny_gradient" in r else
        f"update exactly 0 for {', '.join(r['never_updated'][:3])}"
        for r in reasons)

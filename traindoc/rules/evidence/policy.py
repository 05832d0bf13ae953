"""How a cause rule turns the strength of its evidence into a finding."""

from __future__ import annotations

from ...findings import Finding


def finding(name: str, confidence: float, message: str, *, location=None, evidence=None, fix="",
            confirm="") -> Finding:
    """A cause finding whose severity follows its confidence (:meth:`Finding.from_confidence`).
    The confidence is kept within 0.01..0.99: a rule reads series, never the code, so it is
    never certain either way (an experiment of ``traindoc confirm`` is what decides)."""
    confidence = float(min(0.99, max(0.01, confidence)))
    return Finding.from_confidence(name, confidence, message, location=location or {}, evidence=evidence or [],
                                   fix=fix, confirm=confirm)


# Causes that describe a condition of the run (raw inputs, dead units, an initialisation
# off scale) rather than a failure: each harms training through a symptom (raw inputs and
# a bad init slow it down or blow it up; a dead layer stalls it). Where the run shows none,
# the condition is a risk worth a warning, not the cause of a failure worth failing CI for:
# RCAN's 0-255 images, a raw year feature in a GAT, an SR net with 90 % of one layer's
# ReLUs silent all train to the same loss as their normalised counterparts. Measured on
# bench/real: every true data-unnormalized, dead-relu and bad-init first verdict had a
# plateau, slow learning or a non-finite/diverging loss; the error-severity ones on healthy
# fixed versions had none (or warning spikes only). An outlier sample is such a condition
# too: fv3fit's physical target at 35x the median spiked the loss 14x for one step, and
# the run, back on its trend the next step, trained on to its normal loss (bench/real 134's
# fixed version, "data-outlier" at error on it before).
CONDITIONS = ("data-unnormalized", "dead-relu", "bad-init", "data-outlier")
SLOW = ("loss-plateau", "slow-learning")
UNSEEN_CAP = 0.45


def without_symptom(causes: list[Finding], symptoms: list[Finding]) -> list[Finding]:
    """``causes`` with the :data:`CONDITIONS` kept at warning (confidence at most
    :data:`UNSEEN_CAP`) when no symptom of severity error, no slow-convergence symptom and
    no other cause of severity error was seen, the experiments of ``traindoc confirm``
    included (one that shows the run learning far slower than it could adds slow-learning).
    Not a finding read off what the loss function was given: an output ReLU in front of
    negative regression targets cannot reach them, symptom or not."""
    if any(s.severity == "error" or s.name in SLOW for s in symptoms):
        return causes
    if any(f.severity == "error" and f.name not in CONDITIONS for f in causes):
        return causes  # the rules saw the run in trouble (vanishing gradients under a tiny init)
    out = []
    for f in causes:
        # what the loss was given, a loss the outputs cannot explain all run, a dead layer no gradient
        # crosses, units an all-zero init keeps identical: facts, not risks
        structural = any("loss_function" in e or "out_of_reach" in e or "blocked" in e or "symmetric" in e
                         for e in f.evidence)
        if f.name in CONDITIONS and not structural and f.confidence is not None and f.confidence > UNSEEN_CAP:
            f = Finding.from_confidence(
                f.name, UNSEEN_CAP,
                f"{f.message}; but the run shows no serious symptom of it (no plateau, no slow learning, no "
                "non-finite or diverging loss, at most a spike it recovered from): a risk to fix, not the cause "
                "of a failure",
                location=f.location, evidence=f.evidence, fix=f.fix, confirm=f.confirm)
        out.append(f)
    return out


def ruled_out(run) -> frozenset[str]:
    """Causes the run measured absent, whatever the code suggests: the monitor read .grad
    empty when backward began on the sampled steps (gradients are cleared, perhaps by a
    helper the lint cannot follow: ``optimizer_step(zero_grad=True)``)."""
    from .series import carried_grads

    measured = carried_grads(run)
    return frozenset({"missing-zero-grad"}) if measured is not None and not measured[0] else frozenset()

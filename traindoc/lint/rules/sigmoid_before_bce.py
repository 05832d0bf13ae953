"""TD504 sigmoid-before-bce: ``BCELoss(sigmoid(x))`` instead of ``BCEWithLogitsLoss(x)``."""

from __future__ import annotations

from ..grad_mode import eval_context
from ..ops import loss_call
from ..registry import Hit, lint_rule
from ..source import describe


@lint_rule(
    "sigmoid-before-bce", "TD504", "warning",
    "a sigmoid output fed to BCELoss / binary_cross_entropy instead of the logits to BCEWithLogitsLoss",
    needles=[("sigmoid", "Sigmoid", "expit"), ("BCELoss", "binary_cross_entropy")],
    fix="drop the sigmoid and use nn.BCEWithLogitsLoss / F.binary_cross_entropy_with_logits on the logits",
    confirm="give a logit of 40 with target 0: BCELoss returns 100 (its clamp) with zero gradient; "
            "BCEWithLogitsLoss returns 40 with gradient 1",
)
def check(m):
    """What it detects: a sigmoid output (`torch.sigmoid`, `x.sigmoid()`, `nn.Sigmoid`,
    the last layer of an `nn.Sequential`, a `forward` that returns a sigmoid) passed as
    the input of `nn.BCELoss` or `F.binary_cross_entropy`, also inside a loss class of the
    file whose instance a training function receives as a parameter (`loss_fn(prob, y)`
    with `BinaryLoss()` passed for `loss_fn`), outside evaluation code (a
    loss computed under `torch.no_grad()` or in a test/eval function is only reported,
    so its gradient does not matter).

    Why it happens: in float32 sigmoid(x) rounds to exactly 1.0 for x > 17 and
    underflows towards 0 for x < -88, so log(p) or log(1 - p) inside the loss is -inf.
    BCELoss clamps the log at -100 to avoid inf, which makes the loss finite but the
    gradient exactly zero: a confidently wrong sample stops teaching the model (cause
    `loss-mismatch`). Under autocast BCELoss is refused outright for the same reason.
    BCEWithLogitsLoss computes the loss from the logit with the log-sum-exp trick and
    keeps an exact, non-zero gradient.

    Example:
        prob = torch.sigmoid(model(x))
        loss = nn.BCELoss()(prob, y)

    How to fix:
        loss = nn.BCEWithLogitsLoss()(model(x), y)       # pos_weight= for imbalance
        prob = torch.sigmoid(logits)                     # for metrics only
    """
    for site in m.w.calls:
        call = site.node
        lc = loss_call(m, call)
        if lc is not None and eval_context(m, site.ctx):
            continue  # a reported loss: no gradient to vanish
        if lc is None or lc[0] != "bce":
            continue
        if m.kind(lc[1]) == "sigmoid":
            yield Hit(call, f"BCELoss on a sigmoid output ({describe(m, lc[1])}): the log saturates at -100 "
                            "with zero gradient for confident mistakes; use BCEWithLogitsLoss on the logits")

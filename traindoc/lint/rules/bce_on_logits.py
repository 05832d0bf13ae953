"""TD514 bce-on-logits: BCELoss / binary_cross_entropy given raw logits (no sigmoid)."""

from __future__ import annotations

from ..ops import loss_of
from ..registry import Hit, lint_rule
from ..source import describe


@lint_rule(
    "bce-on-logits", "TD514", "error",
    "BCELoss / F.binary_cross_entropy given the raw output of a Linear or Conv layer instead of probabilities",
    needles=[("BCELoss", "binary_cross_entropy"), ("Linear", "Conv", "segmentation_models_pytorch")],
    fix="use nn.BCEWithLogitsLoss / F.binary_cross_entropy_with_logits on the raw output",
    confirm="print output.min(), output.max(): values outside [0, 1] (BCELoss raises on CPU, asserts on CUDA)",
)
def check(m):
    """What it detects: the input of `nn.BCELoss` / `F.binary_cross_entropy` is provably
    the raw output of an `nn.Linear` or `nn.Conv*` layer: the layer itself, an
    `nn.Sequential` whose last layer is one, a segmentation_models_pytorch model built
    without `activation=` (it returns logits), or a model of the same file whose `forward`
    returns one (through names and `self.` attributes, with `.view`/`.squeeze` and the
    like in between). An input the rule cannot trace to such a layer is never flagged.

    Why it happens: BCELoss expects probabilities in [0, 1] and takes their log.
    Logits are unbounded: the CPU kernel raises "all elements of input should be between
    0 and 1", the CUDA kernel fails with a device-side assert, and any custom clamp
    around it hides a loss that does not match the model (cause `loss-mismatch`).

    Example:
        self.head = nn.Linear(128, 1)                    # forward: return self.head(h)
        loss = nn.BCELoss()(model(x).squeeze(1), y)

    How to fix:
        loss = nn.BCEWithLogitsLoss()(model(x).squeeze(1), y)   # sigmoid inside, stable
        prob = torch.sigmoid(model(x))                   # for metrics and thresholds only
    """
    for site in m.w.calls:
        lc = loss_of(m, site.node)
        if lc is None or lc[0] != "binary_cross_entropy" or lc[1] is None:
            continue
        if m.kind(lc[1]) == "logits":
            yield Hit(site.node, f"binary_cross_entropy on raw logits ({describe(m, lc[1])}, the output of a "
                                 "Linear/Conv layer, or of a library model that returns logits): it expects probabilities in [0, 1]; use "
                                 "BCEWithLogitsLoss")

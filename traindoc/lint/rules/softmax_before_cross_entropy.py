"""TD503 softmax-before-cross-entropy: probabilities fed to a loss that expects logits."""

from __future__ import annotations

from ..ops import loss_call
from ..origin import origin
from ..registry import Hit, lint_rule
from ..source import describe


@lint_rule(
    "softmax-before-cross-entropy", "TD503", "error",
    "a softmax or log_softmax output fed to cross_entropy (which applies log_softmax itself), or a softmax fed to nll_loss",
    needles=[("softmax", "Softmax"), ("cross_entropy", "CrossEntropyLoss", "nll_loss", "NLLLoss")],
    fix="pass the raw logits to F.cross_entropy / nn.CrossEntropyLoss; apply softmax only for reporting",
    confirm="with perfect predictions the loss stays far above 0 (about 1.46 for 10 classes after a softmax)",
)
def check(m):
    """What it detects: the output of a softmax (or log_softmax) passed as the input of
    `F.cross_entropy` / `nn.CrossEntropyLoss`, and a softmax output passed to
    `F.nll_loss` / `nn.NLLLoss`. The softmax may be a call, a method (`x.softmax(-1)`),
    an `nn.Softmax` module, the last layer of an `nn.Sequential`, or the return value of
    the model's `forward` (a class in the same file), through names and `self.` attributes.
    One softmax feeding several such losses (a GAN's real and fake passes) is one finding,
    at the first of them.

    Why it happens: cross-entropy applies log_softmax to its input. A softmax
    before it squashes the logits into [0, 1], so the second softmax sees nearly equal
    values: the loss can never go below log(C) - 1 + ... (about 1.46 for 10 classes even
    with perfect predictions) and its gradients shrink by a factor up to C, so training
    crawls and plateaus (cause `loss-mismatch`). A log_softmax before it is harmless
    mathematically (log_softmax is idempotent) but doubles the work and usually hides the
    same confusion. nll_loss expects log-probabilities: on probabilities it minimises -p
    instead of -log p, which has almost no gradient for wrong predictions.

    Example:
        self.out = nn.Softmax(dim=-1)                    # in __init__
        return self.out(self.body(x))                    # in forward
        loss = nn.CrossEntropyLoss()(model(x), y)        # softmax twice

    How to fix:
        return self.body(x)                              # logits out of forward
        loss = F.cross_entropy(logits, y)                # probs = logits.softmax(-1) for metrics only
    """
    sites = []
    for site in m.w.calls:
        lc = loss_call(m, site.node)
        if lc is None or lc[0] not in ("cross_entropy", "nll"):
            continue
        k = m.kind(lc[1])
        if k in ("softmax", "log_softmax"):
            sites.append((site.node, lc, k, origin(m, lc[1], k)))
    # one softmax in the model's forward feeding several losses (a GAN's real and fake
    # passes): one defect, one finding, at the first loss, naming the others
    by_src: dict = {}
    for call, (which, _), k, src in sites:
        if src is not None and src.lineno != call.lineno:
            by_src.setdefault((id(src), which, k), []).append(call.lineno)
    for call, (which, inp), k, src in sites:
        same = by_src.get((id(src), which, k), [call.lineno])
        if call.lineno != same[0]:
            continue
        what = describe(m, inp)
        at = f" (line {src.lineno}{'; so is the input of the losses on lines ' + ', '.join(map(str, same[1:])) if same[1:] else ''})" \
            if src is not None and src.lineno != call.lineno else ""
        # the line to change is the softmax (in forward, often): cite it with the loss call
        rel = ((src, f"the {k} whose output the loss receives"),) if src is not None else ()
        if which == "cross_entropy" and k == "softmax":
            yield Hit(call, f"cross_entropy applies log_softmax itself; its input {what} is already a softmax "
                            f"output{at}, so the loss cannot approach 0 and gradients shrink; pass the logits",
                      related=rel)
        elif which == "cross_entropy" and k == "log_softmax":
            yield Hit(call, f"cross_entropy applies log_softmax itself; its input {what} is already a log_softmax "
                            f"output{at}; pass the logits (or use nll_loss)", severity="warning", related=rel)
        elif which == "nll" and k == "softmax":
            yield Hit(call, f"nll_loss expects log-probabilities; its input {what} is a softmax output{at}, so it "
                            "minimises -p instead of -log p; use log_softmax (or cross_entropy on the logits)",
                      fix="use F.log_softmax before nll_loss, or F.cross_entropy on the logits", related=rel)

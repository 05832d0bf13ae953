"""TD501 log-of-softmax: ``torch.log(torch.softmax(x))`` instead of ``log_softmax``."""

from __future__ import annotations

from ..ops import op_of
from ..registry import Hit, lint_rule


@lint_rule(
    "log-of-softmax", "TD501", "error",
    "the log of a softmax (or sigmoid) output computed in two steps: -inf where the probability underflows",
    needles=[("log",), ("softmax", "Softmax", "sigmoid", "Sigmoid", "expit")],
    fix="use F.log_softmax(x, dim) (or F.logsigmoid(x)) on the logits",
    confirm="feed logits with a spread of ~100 (e.g. x * 100): log(softmax(x)) has -inf entries, log_softmax does not",
)
def check(m):
    """What it detects: the log of a softmax or sigmoid output computed in two steps,
    `torch.log(torch.softmax(x, -1))`, `F.softmax(x, -1).log()`, `torch.log(p)` where
    `p = nn.Softmax(-1)(x)` (through names, aliases, method calls and modules assigned in
    `__init__`), and `torch.log(torch.sigmoid(x))`. A guarded argument
    (`softmax(x) + eps`, `.clamp(min=eps)`) is not flagged.

    Why it happens: softmax rounds every probability below ~1e-38 (float32; 6e-8
    in float16) to exactly 0, and log(0) = -inf. One confident wrong prediction then gives
    an infinite loss, and its gradient inf * 0 gives NaN that spreads to every weight at
    the next step (cause `unstable-op`). `log_softmax` computes x - logsumexp(x) and stays
    finite for any finite logits, and is also faster (one kernel, one pass).

    Example:
        logp = torch.log(F.softmax(logits, dim=-1))      # -inf once a logit is 100 below the max
        loss = F.nll_loss(logp, y)

    How to fix:
        logp = F.log_softmax(logits, dim=-1)             # or F.cross_entropy(logits, y)
        logq = F.logsigmoid(z)                           # for log(sigmoid(z))
    """
    for site in m.w.calls:
        call = site.node
        if op_of(m, call) != "log":
            continue
        k = m.kind(m.subject(call))
        if k == "softmax":
            yield Hit(call, "log of a softmax output gives -inf (then NaN gradients) where a probability "
                            "underflows to 0; use log_softmax")
        elif k == "sigmoid":
            yield Hit(call, "log of a sigmoid output gives -inf where the sigmoid underflows to 0; use F.logsigmoid",
                      fix="use F.logsigmoid(z) on the pre-sigmoid value")

"""TD528 sigmoid-before-bce-with-logits: a sigmoid output fed to BCEWithLogitsLoss (sigmoid applied twice)."""

from __future__ import annotations

import ast

from ..bindings import Param
from ..ops import loss_of
from ..registry import Hit, lint_rule
from ..source import describe, short
from ..walk import walk


@lint_rule(
    "sigmoid-before-bce-with-logits", "TD528", "error",
    "a sigmoid output fed to BCEWithLogitsLoss / binary_cross_entropy_with_logits, which applies the sigmoid itself",
    needles=[("sigmoid", "Sigmoid", "expit"), ("with_logits", "WithLogits")],
    fix="pass the raw logits (drop the sigmoid, or move it to the metrics code)",
    confirm="with perfect predictions the loss stays near 0.31 (sigmoid(1) against target 1), never near 0",
)
def check(m):
    """What it detects: the input of `nn.BCEWithLogitsLoss` /
    `F.binary_cross_entropy_with_logits` is a sigmoid output: `torch.sigmoid`,
    `x.sigmoid()`, an `nn.Sigmoid` module, the last layer of an `nn.Sequential`, or a
    same-file model whose `forward` returns a sigmoid (through names and `self.`
    attributes); a same-file loss module whose `forward` hands its first input to
    BCE-with-logits, called on a sigmoid output (flagged at that call); and a parameter
    named as probabilities (`exist_probs`) of a loss
    function or module that nothing in the file calls, in a file that computes a sigmoid
    (the head's output reaches the loss from another file).

    Why it happens: the loss applies a sigmoid to its input. A second sigmoid
    squashes probabilities in [0, 1] into [0.5, 0.73]: a perfect positive prediction
    still costs about 0.31 and a perfect negative about 0.69, the gradient is at most a
    quarter of what it should be, and the decision threshold moves from 0.5 to
    sigmoid(0.5) = 0.62 if the same double sigmoid is used for metrics (cause
    `loss-mismatch`, `slow-learning`).

    Example:
        prob = torch.sigmoid(model(x))
        loss = nn.BCEWithLogitsLoss()(prob, y)           # sigmoid twice

    How to fix:
        loss = nn.BCEWithLogitsLoss()(model(x), y)
    """
    seen: set[int] = set()
    for site in m.w.calls:
        lc = loss_of(m, site.node)
        if lc is None or lc[0] != "binary_cross_entropy_with_logits" or lc[1] is None:
            continue
        site_call = _module_loss_call(m, lc[1])
        if site_call is not None:  # (a loss module called on a sigmoid: the call is the finding)
            if id(site_call) in seen:
                continue
            seen.add(id(site_call))
            yield Hit(site_call, f"`{short(site_call.func)}` gives its input to BCEWithLogitsLoss inside its forward, "
                                 f"and this call passes it a sigmoid output ({describe(m, site_call.args[0])}): the "
                                 "sigmoid is applied twice (predictions squeezed into [0.5, 0.73]); pass the logits")
        elif m.kind(lc[1]) == "sigmoid":
            yield Hit(site.node, f"BCEWithLogitsLoss on a sigmoid output ({describe(m, lc[1])}): the loss applies "
                                 "the sigmoid again, so it cannot approach 0 and gradients shrink; pass the logits")
        elif _prob_param(m, lc[1]):
            yield Hit(site.node, f"BCEWithLogitsLoss on `{lc[1].id}`, a parameter named as probabilities, in a file "
                                 "whose model applies a sigmoid: if it is the sigmoid's output the loss applies the "
                                 "sigmoid again (predictions squeezed into [0.5, 0.73]); pass the logits")


def _prob_param(m, e) -> bool:
    """``e`` is a parameter named as probabilities (``probs``, ``exist_prob``) of a function
    no call of this file tells about, in a file that computes a sigmoid: a loss module's
    ``forward(self, logits, exist_probs, ...)`` fed from a head that ends in one."""
    if not isinstance(e, ast.Name) or "prob" not in e.id.lower() or b"sigmoid" not in m.source.lower():
        return False
    d = m.defs(e)
    return bool(d) and len(d) == 1 and isinstance(d[0], Param) and not m.call_sites(d[0].fn)


def _module_loss_call(m, e):
    """``e`` is the first input parameter of a same-file module's ``forward`` (a focal loss
    built on BCE-with-logits), and a call of an instance of that module passes a sigmoid
    output for it: that call, else None. (The line: a loss written for logits called on
    probabilities is wrong at the call; one whose input is named as probabilities is wrong
    at its own BCE-with-logits call, which the kind of its parameter then flags.)"""
    if not isinstance(e, ast.Name) or "prob" in e.id.lower():
        return None  # a loss written for probabilities (`forward(self, probs, y)`): its own with-logits call is wrong
    d = m.defs(e)
    if not (d and len(d) == 1 and isinstance(d[0], Param) and d[0].fn.name == "forward" and d[0].pos == 1):
        return None
    cls = next((c for c in walk(m.tree) if isinstance(c, ast.ClassDef) and d[0].fn in c.body), None)
    if cls is None:
        return None
    for site in m.w.calls:
        call = site.node
        if call.args and m.kind(call.func) == ("local", cls) and m.kind(call.args[0]) == "sigmoid":
            return call
    return None

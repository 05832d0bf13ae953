"""TD518 softmax-without-dim: ``nn.Softmax()`` / ``F.softmax(x)`` with the dimension left implicit."""

from __future__ import annotations

from .. import names as N
from ..registry import Hit, lint_rule
from ..source import keyword, may_be

_NAMES = frozenset({"Softmax", "LogSoftmax", "Softmin", "softmax", "log_softmax", "softmin"})


@lint_rule(
    "softmax-without-dim", "TD518", "warning",
    "nn.Softmax() / F.softmax(x) (or log_softmax, softmin) without dim: the implicit choice is the batch dim for 3-D input",
    needles=[("oftmax", "oftmin")],
    fix="always pass dim: nn.Softmax(dim=-1), F.softmax(x, dim=-1) (the class dimension)",
    confirm="run the layer on a (batch, seq, classes) tensor: the outputs sum to 1 over the batch, not the classes",
)
def check(m):
    """What it detects: `nn.Softmax()`, `nn.LogSoftmax()`, `nn.Softmin()` built without
    `dim`, and `F.softmax(x)`, `F.log_softmax(x)`, `F.softmin(x)` called with the input
    only (any import spelling). Calls that pass `**kwargs` are not flagged. Also
    `torch.softmax(x)` / `torch.log_softmax(x)` and the methods `x.softmax()` /
    `x.log_softmax()` with no dim: those require it (TypeError the first time the line runs).

    Why it happens: with `dim=None` PyTorch guesses (and warns that the implicit
    choice is deprecated): dim 0 for 0-, 1- and 3-D inputs, dim 1 otherwise. For a
    (batch, classes) input that happens to be right; for a (batch, seq, classes) input
    the softmax normalises over the batch, so each sample's "probabilities" depend on the
    other samples in its batch and do not sum to 1 over the classes (cause
    `loss-mismatch`). The same code silently changes meaning when a sequence dimension is
    added.

    Example:
        self.out = nn.Softmax()                          # dim=None
        probs = F.softmax(logits)                        # dim 0 for a 3-D input

    How to fix:
        self.out = nn.Softmax(dim=-1)
        probs = F.softmax(logits, dim=-1)
    """
    for site in m.w.calls:
        call = site.node
        if not may_be(call, _NAMES):
            continue
        c = m.callee(call)
        if any(k.arg is None for k in call.keywords):
            continue
        if c[0] == "meth" and c[1] in ("softmax", "log_softmax") and not call.args and not call.keywords \
                and _torch_only(m):
            # the tensor method takes dim as a required argument: `scores.softmax()` raises
            # TypeError the first time that line runs (a path no test took)
            yield Hit(call, f"`.{c[1]}()` without dim: the tensor method requires it (TypeError when this line "
                            "runs); pass dim=-1")
            continue
        if c[0] != "fn":
            continue
        q = c[1]
        if q in ("torch.softmax", "torch.log_softmax") and len(call.args) == 1 and not call.keywords:
            # unlike F.softmax, the torch.* functions take dim as a required argument
            yield Hit(call, f"`{q}(x)` without dim: torch's function requires it (TypeError when this line runs); "
                            "pass dim=-1")
            continue
        if q in N.SOFTMAX_MODULES:
            if not call.args and keyword(call, "dim") is None:
                yield Hit(call, f"`{q.rsplit('.', 1)[-1]}()` without dim: PyTorch picks dim 0 for 3-D input "
                                "(the batch), so it normalises over the wrong axis; pass dim=-1")
        elif q in N.SOFTMAX_FNS_DIM:
            if len(call.args) == 1 and keyword(call, "dim") is None and keyword(call, "_stacklevel") is None:
                yield Hit(call, f"`{q.rsplit('.', 1)[-1]}(x)` without dim: PyTorch picks dim 0 for 1-D and 3-D input "
                                "(the batch of a (batch, seq, classes) tensor); pass dim=-1")


def _torch_only(m) -> bool:
    """The file's tensors are torch's: it imports torch and no other array library whose
    tensors have a softmax method with a default axis (tinygrad, MLX, JAX)."""
    src = m.source
    return (b"import torch" in src or b"from torch" in src) and not any(
        w in src for w in (b"tinygrad", b"mlx", b"import jax", b"from jax"))

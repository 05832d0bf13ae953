"""Small real models that go NaN by the five classic mechanisms, with batches that trigger them.

Used by the tests, the benchmark and the demo. Each ``make_*`` returns an
:class:`Example`: the model, a loss module, the batch (inputs, targets), the batch
positions that are bad, and where the NaN starts (module path and op), so a test can
check that forensics names exactly that. All randomness comes from a private generator.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn


@dataclass
class Example:
    model: nn.Module
    loss: nn.Module
    inputs: Any  # what model(*inputs) takes
    targets: torch.Tensor
    bad: list[int]  # batch positions of the offending samples
    module: str  # where the first non-finite value is made
    op: str  # short aten name
    kind: str  # NonfiniteReport.kind expected
    autocast: torch.dtype | None = None

    def forward_loss(self, inputs: Any = None, targets: Any = None) -> torch.Tensor:
        inputs = self.inputs if inputs is None else inputs
        targets = self.targets if targets is None else targets
        if self.autocast is not None:
            with torch.autocast("cpu", dtype=self.autocast):
                return self.loss(self.model(*inputs), targets)
        return self.loss(self.model(*inputs), targets)


class BehaviourAttention(nn.Module):
    """Target attention over a user's behaviour sequence, softmax written by hand.

    The user vector is a *sum* over the sequence, so its norm grows with the length;
    the attention logits grow with it and ``exp`` overflows float32 (> 88.7) for a
    sequence 25x longer than usual. The fix: ``torch.softmax`` (or subtract the row max).
    """

    def __init__(self, d: int, safe: bool = False) -> None:
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.safe = safe

    def forward(self, h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        # h (B, L, D), mask (B, L) True where a real item is
        user = (h * mask[..., None]).sum(1)  # sum pooling: grows with the length
        scores = (self.k(h) @ self.q(user)[..., None]).squeeze(-1) / math.sqrt(h.shape[-1])
        if self.safe:
            w = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=1)
        else:
            w = torch.exp(scores) * mask  # no max subtracted: overflows for long sequences
            w = w / w.sum(1, keepdim=True)
        return (w[..., None] * h).sum(1)


class Encoder(nn.Module):
    def __init__(self, d: int, safe: bool = False) -> None:
        super().__init__()
        self.attn = BehaviourAttention(d, safe)
        self.norm = nn.LayerNorm(d)

    def forward(self, h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.norm(self.attn(h, mask))


class CTRModel(nn.Module):
    """Embedding -> behaviour attention -> click logit (the founding story's model)."""

    def __init__(self, vocab: int = 1000, d: int = 16, safe: bool = False) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d, padding_idx=0)
        self.encoder = Encoder(d, safe)
        self.head = nn.Linear(d, 1)

    def forward(self, tokens: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.head(self.encoder(self.embed(tokens), mask)).squeeze(-1)


def behaviour_batch(lengths: list[int], vocab: int = 1000, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-padded token ids (0 = padding) with Zipf-like item popularity, and the mask."""
    g = torch.Generator().manual_seed(seed)
    L = max(lengths)
    ranks = torch.arange(1, vocab, dtype=torch.float64)
    p = 1.0 / ranks
    tokens = torch.zeros(len(lengths), L, dtype=torch.long)
    for i, n in enumerate(lengths):
        tokens[i, :n] = torch.multinomial(p, n, replacement=True, generator=g) + 1
    return tokens, tokens != 0


def make_exp_overflow(batch: int = 16, bad: tuple[int, ...] = (5,), long: int = 5000, seed: int = 0) -> Example:
    """(a) one 5000-long sequence among ~200-long ones: exp overflow in encoder.attn."""
    torch.manual_seed(seed)
    model = CTRModel()
    with torch.no_grad():
        model.embed.weight.mul_(0.3)  # logits ~5 at length 200, ~120 at 5000
    g = torch.Generator().manual_seed(seed + 1)
    lengths = [int(x) for x in torch.randint(150, 250, (batch,), generator=g)]
    for b in bad:
        lengths[b] = long
    tokens, mask = behaviour_batch(lengths, seed=seed)
    targets = torch.randint(0, 2, (batch,), generator=g).float()
    return Example(model, nn.BCEWithLogitsLoss(), (tokens, mask), targets, list(bad),
                   "encoder.attn", "exp", "unstable-op")


class HandCrossEntropy(nn.Module):
    """Cross-entropy written as ``-log(softmax(z)[y])``: log(0) when a probability underflows."""

    def forward(self, logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        p = torch.softmax(logits, dim=1).gather(1, y[:, None]).squeeze(1)
        return -torch.log(p).mean()


def make_log_zero(batch: int = 32, bad: tuple[int, ...] = (11,), seed: int = 0) -> Example:
    """(b) one sample with huge features: its target probability underflows to 0, log(0)."""
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
    g = torch.Generator().manual_seed(seed + 1)
    x = torch.randn(batch, 20, generator=g)
    y = torch.randint(0, 5, (batch,), generator=g)
    with torch.no_grad():
        for b in bad:
            x[b] *= 1000.0  # a magnitude outlier: logit gaps in the hundreds
            y[b] = int(model(x[b : b + 1]).argmin())  # labelled as the class it finds least likely
    return Example(model, HandCrossEntropy(), (x,), y, list(bad), "criterion", "log", "unstable-op")


class MaskedSelfAttention(nn.Module):
    """Multi-head self-attention that masks padded keys with -inf before ``torch.softmax``."""

    def __init__(self, d: int, heads: int) -> None:
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.heads = heads

    def forward(self, x: torch.Tensor, key_padding: torch.Tensor) -> torch.Tensor:
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(D // self.heads)  # (B, H, L, L)
        scores = scores.masked_fill(key_padding[:, None, None, :], float("-inf"))
        w = torch.softmax(scores, dim=-1)  # a row with every key masked: NaN
        return self.out((w @ v).transpose(1, 2).reshape(B, L, D))


class TinyTransformer(nn.Module):
    def __init__(self, d: int = 32, heads: int = 4, layers: int = 2, classes: int = 3) -> None:
        super().__init__()
        self.proj = nn.Linear(8, d)
        self.layers = nn.ModuleList(MaskedSelfAttention(d, heads) for _ in range(layers))
        self.head = nn.Linear(d, classes)

    def forward(self, x: torch.Tensor, key_padding: torch.Tensor) -> torch.Tensor:
        h = self.proj(x)
        for layer in self.layers:
            h = h + layer(h, key_padding)
        keep = (~key_padding).float()[..., None]
        return self.head((h * keep).sum(1) / keep.sum(1).clamp(min=1))


def make_masked_row(batch: int = 12, bad: tuple[int, ...] = (4,), seed: int = 0) -> Example:
    """(c) an empty (fully padded) sequence: every key masked, softmax of all -inf is NaN."""
    torch.manual_seed(seed)
    model = TinyTransformer()
    g = torch.Generator().manual_seed(seed + 1)
    L = 24
    lengths = torch.randint(8, L + 1, (batch,), generator=g)
    for b in bad:
        lengths[b] = 0
    x = torch.randn(batch, L, 8, generator=g)
    pad = torch.arange(L)[None, :] >= lengths[:, None]
    x = x.masked_fill(pad[..., None], 0.0)
    y = torch.randint(0, 3, (batch,), generator=g)
    return Example(model, nn.CrossEntropyLoss(), (x, pad), y, list(bad), "layers.0", "_softmax", "unstable-op")


def _mlp() -> nn.Module:
    return nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 1))


def make_nan_input(batch: int = 64, bad: tuple[int, ...] = (7,), seed: int = 0) -> Example:
    """(d) a NaN in one sample's features: the first layer reads it (bad data, not an op)."""
    torch.manual_seed(seed)
    model = _mlp()
    g = torch.Generator().manual_seed(seed + 1)
    x = torch.randn(batch, 64, generator=g)
    for b in bad:
        x[b, 3] = float("nan")
    y = torch.randn(batch, generator=g)
    return Example(_Squeeze(model), nn.MSELoss(), (x,), y, list(bad), "net.0", "addmm", "nonfinite-input")


class _Squeeze(nn.Module):
    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x).squeeze(-1)


def make_fp16_overflow(batch: int = 64, bad: tuple[int, ...] = (9,), seed: int = 0) -> Example:
    """(e) autocast float16: one sample with features ~6000 makes the first matmul pass 65504."""
    torch.manual_seed(seed)
    model = _mlp()
    g = torch.Generator().manual_seed(seed + 1)
    x = torch.randn(batch, 64, generator=g)
    with torch.no_grad():
        model[0].weight.copy_(model[0].weight.sign() * 0.2)
    for b in bad:
        x[b] = 6000.0 * model[0].weight[0].sign()  # 64 * 6000 * 0.2 = 76800 > 65504
    y = torch.randn(batch, generator=g)
    return Example(_Squeeze(model), nn.MSELoss(), (x,), y, list(bad), "net.0", "addmm", "fp16-overflow",
                   autocast=torch.float16)

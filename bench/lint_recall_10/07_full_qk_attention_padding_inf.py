# Source: https://github.com/lucidrains/reformer-pytorch/pull/26
# Pitfall: the full query-key attention fills padded key positions with float('-inf') before the softmax;
#   a sequence whose keys are all padding gives a 0/0 row, NaN activations and a NaN loss.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class FullQKAttention(nn.Module):
    def __init__(self, dim, heads=8, dropout=0.1):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qk = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, input_mask=None):
        b, n, d = x.shape
        h = self.heads
        qk = self.to_qk(x).view(b, n, h, -1).transpose(1, 2)
        v = self.to_v(x).view(b, n, h, -1).transpose(1, 2)
        # shared query/key projection, as in the reformer paper
        keys = qk / qk.norm(dim=-1, keepdim=True).clamp(min=1e-6)
        dots = torch.einsum("bhid,bhjd->bhij", qk, keys) * self.scale
        if input_mask is not None:
            pad = ~input_mask[:, None, None, :]
            dots = dots.masked_fill(pad, float("-inf"))
        attn = dots.softmax(dim=-1)  # expect: fully-masked-softmax
        attn = self.drop(attn)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = out.transpose(1, 2).reshape(b, n, d)
        return self.to_out(out)


class TinyEncoder(nn.Module):
    def __init__(self, vocab, dim=256, depth=4, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.blocks = nn.ModuleList([FullQKAttention(dim) for _ in range(depth)])
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.cls = nn.Linear(dim, n_classes)

    def forward(self, ids):
        mask = ids != 0
        x = self.emb(ids)
        for attn, norm in zip(self.blocks, self.norms):
            x = x + attn(norm(x), input_mask=mask)
        denom = mask.sum(1, keepdim=True).clamp(min=1)
        pooled = (x * mask.unsqueeze(-1)).sum(1) / denom
        return self.cls(pooled)

# Source: https://github.com/lucidrains/vit-pytorch/issues/26
# Pitfall: attention scores at padding patches are filled with -inf before the softmax; for an image whose
#   patches are all padding the row is exp(-inf)/0 = NaN and the model output and loss become NaN.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class MaskedSelfAttention(nn.Module):
    def __init__(self, dim=64, heads=4):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, keep):
        b, n, d = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(b, n, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        pair_mask = keep[:, None, :, None] & keep[:, None, None, :]
        dots.masked_fill_(~pair_mask, float("-inf"))
        attn = dots.softmax(dim=-1)  # expect: fully-masked-softmax
        out = torch.einsum("bhij,bhjd->bhid", attn, v).transpose(1, 2).reshape(b, n, d)
        return self.to_out(out)


class PatchClassifier(nn.Module):
    def __init__(self, dim=64, n_classes=2):
        super().__init__()
        self.patch = nn.Linear(48, dim)
        self.attn = MaskedSelfAttention(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, patches, keep):
        h = self.attn(self.patch(patches), keep)
        return self.head(h.mean(dim=1))

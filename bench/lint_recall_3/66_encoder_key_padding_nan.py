# Source: https://github.com/pytorch/pytorch/issues/26098
# Pitfall: Attention weights are masked_fill'ed with -inf at padded key positions and then softmaxed; a
# sequence whose keys are all padding gives a row of -inf, and softmax returns NaN for the whole row.
# Reproduced in our own words, not the original code.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PaddedSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x, key_padding_mask):
        bsz, tgt_len, _ = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q, k, v = (t.view(bsz, tgt_len, self.n_heads, self.d_head).transpose(1, 2) for t in (q, k, v))
        attn_output_weights = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        attn_output_weights = attn_output_weights.masked_fill(
            key_padding_mask.unsqueeze(1).unsqueeze(2), float("-inf")
        )
        attn_output_weights = F.softmax(attn_output_weights, dim=-1)  # expect: fully-masked-softmax
        out = (attn_output_weights @ v).transpose(1, 2).reshape(bsz, tgt_len, -1)
        return self.out_proj(out)

# Source: https://github.com/jadore801120/attention-is-all-you-need-pytorch/issues/5
# Pitfall: padded positions set to -inf before the softmax; rows that belong to padding
# queries are entirely -inf, so training and validation loss are NaN from the first epoch.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
from torch import nn


class DotAttention(nn.Module):
    def __init__(self, d_k):
        super().__init__()
        self.temper = np.power(d_k, 0.5)
        self.softmax = nn.Softmax(dim=2)

    def forward(self, q, k, v, attn_mask):
        attn = torch.bmm(q, k.transpose(1, 2)) / self.temper
        attn.data.masked_fill_(attn_mask, -float("inf"))  # expect: fully-masked-softmax
        attn = self.softmax(attn)
        return torch.bmm(attn, v)

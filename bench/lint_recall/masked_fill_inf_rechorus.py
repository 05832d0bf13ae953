# Source: https://github.com/THUwangcy/ReChorus/issues/8
# Pitfall: attention scores masked with -inf before softmax; a user history that is all
# padding masks the whole row and softmax returns NaN.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
from torch import nn


class ScaledAttention(nn.Module):
    def forward(self, q, k, v, mask):
        scores = q @ k.transpose(-2, -1) / np.sqrt(q.shape[-1])
        scores = scores.masked_fill(mask == 0, -np.inf)  # expect: fully-masked-softmax
        attn = scores.softmax(dim=-1)
        return attn @ v

# Source: https://github.com/pytorch/pytorch/issues/41508
# Pitfall: nn.MultiheadAttention with a key_padding_mask that masks every key of a sequence
# (an empty item in the batch): the softmax row is all -inf and gradients become NaN.
# Reproduced in our own words, not the original code.
import torch
from torch import nn

mha = nn.MultiheadAttention(embed_dim=32, num_heads=4)
head = nn.Linear(32, 1)
opt = torch.optim.Adam([*mha.parameters(), *head.parameters()], lr=1e-3)

x = torch.randn(6, 2, 32)
pad = torch.zeros(2, 6, dtype=torch.bool)
pad[1, :] = True  # the second sequence is empty

opt.zero_grad()
out, _ = mha(x, x, x, key_padding_mask=pad)  # expect: fully-masked-softmax
loss = head(out).mean()
loss.backward()
opt.step()

# Source: https://github.com/dmlc/dgl/issues/2657
# Pitfall: set-transformer attention pads every graph's node set, fills padded scores with -inf and takes a
#          softmax; rows for padded query slots are entirely -inf, giving NaN that spreads after one epoch.
# Reproduced in our own words, not the original code.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PaddedMultiHeadAttention(nn.Module):
    def __init__(self, d_model=64, num_heads=4):
        super().__init__()
        self.h, self.dk = num_heads, d_model // num_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)

    def forward(self, x, mem, lengths_x, lengths_mem):
        b, lx, _ = x.shape
        lm = mem.shape[1]
        q = self.q(x).view(b, lx, self.h, self.dk)
        k = self.k(mem).view(b, lm, self.h, self.dk)
        v = self.v(mem).view(b, lm, self.h, self.dk)
        e = torch.einsum("bxhd,byhd->bhxy", q, k) / math.sqrt(self.dk)
        mask = torch.zeros(b, lx, lm, device=x.device)
        for i in range(b):
            mask[i, :lengths_x[i], :lengths_mem[i]] = 1
        e = e.masked_fill(mask.unsqueeze(1) == 0, -float("inf"))
        alpha = torch.softmax(e, dim=-1)  # expect: fully-masked-softmax
        out = torch.einsum("bhxy,byhd->bxhd", alpha, v).reshape(b, lx, -1)
        return self.o(out)


class SetReadout(nn.Module):
    def __init__(self, d=64, n_out=1):
        super().__init__()
        self.sab = PaddedMultiHeadAttention(d)
        self.head = nn.Linear(d, n_out)

    def forward(self, feats, lengths):
        h = self.sab(feats, feats, lengths, lengths)
        keep = (torch.arange(feats.shape[1])[None, :] < torch.tensor(lengths)[:, None]).unsqueeze(-1)
        pooled = (h * keep).sum(1) / torch.tensor(lengths, dtype=torch.float).unsqueeze(1)
        return self.head(pooled).squeeze(-1)


if __name__ == "__main__":
    model = SetReadout()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lengths = [5, 9, 3, 12]
    feats = torch.randn(4, 12, 64)
    target = torch.randn(4)
    for epoch in range(3):
        opt.zero_grad()
        loss = F.mse_loss(model(feats, lengths), target)
        loss.backward()
        opt.step()
        print(epoch, loss.item())

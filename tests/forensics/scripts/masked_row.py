"""Mechanism (c): a fully masked attention row. Dataset index 50 is an empty sequence: every
key is padding, masked_fill(-inf) leaves a row of -inf and softmax makes it NaN."""
import math
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

BAD = 50


class Seqs(Dataset):
    def __init__(self, n=192, L=12):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, L, 8, generator=g)
        self.lengths = torch.randint(3, L + 1, (n,), generator=g)
        self.lengths[BAD] = 0
        self.y = torch.randint(0, 3, (n,), generator=g)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"x": self.x[i], "length": self.lengths[i], "y": self.y[i]}


class SelfAttention(nn.Module):
    def __init__(self, d, heads=2):
        super().__init__()
        self.qkv, self.out, self.heads = nn.Linear(d, 3 * d), nn.Linear(d, d), heads

    def forward(self, x, pad):
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-1, -2) / math.sqrt(D // self.heads)
        s = s.masked_fill(pad[:, None, None, :], float("-inf"))
        return self.out((torch.softmax(s, -1) @ v).transpose(1, 2).reshape(B, L, D))


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.attn = SelfAttention(d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x, pad):
        return self.norm(x + self.attn(x, pad))


class Model(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.proj = nn.Linear(8, d)
        self.layers = nn.ModuleList([Block(d), Block(d)])
        self.head = nn.Linear(d, 3)

    def forward(self, x, pad):
        h = self.proj(x)
        for layer in self.layers:
            h = layer(h, pad)
        keep = (~pad).float()[..., None]
        return self.head((h * keep).sum(1) / keep.sum(1).clamp(min=1))


def main():
    torch.manual_seed(0)
    loader = DataLoader(Seqs(), batch_size=24, shuffle=True, generator=torch.Generator().manual_seed(0))
    model = Model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, b in enumerate(loader):
        pad = torch.arange(b["x"].shape[1])[None, :] >= b["length"][:, None]
        loss = nn.functional.cross_entropy(model(b["x"], pad), b["y"])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if loss.isnan():
            print(f"step {step}: NaN")
            sys.exit(1)


if __name__ == "__main__":
    main()

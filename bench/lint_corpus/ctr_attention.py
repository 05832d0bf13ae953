"""Style: the founding story, a CTR model with a hand-written attention softmax."""
import math

import torch
from torch import nn
from torch.utils.data import DataLoader


class InterestAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)

    def forward(self, h, mask):
        interest = (h * mask.unsqueeze(-1)).sum(1)
        scores = torch.einsum("bd,bld->bl", self.q(interest), self.k(h)) / math.sqrt(h.shape[-1])
        w = torch.exp(scores) * mask  # expect: unshifted-softmax
        w = w / w.sum(1, keepdim=True)
        return torch.einsum("bl,bld->bd", w, h)


class CTRModel(nn.Module):
    def __init__(self, n_items, dim):
        super().__init__()
        self.items = nn.Embedding(n_items, dim, padding_idx=0)
        self.attn = InterestAttention(dim)
        self.mlp = nn.Sequential(nn.Linear(2 * dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, hist, mask, target):
        user = self.attn(self.items(hist), mask)
        return self.mlp(torch.cat([user, self.items(target)], -1)).squeeze(-1)


def train(ds, collate, epochs=1):
    loader = DataLoader(ds, batch_size=256, shuffle=True, collate_fn=collate, num_workers=8, pin_memory=True)
    model = CTRModel(100_000, 32).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        for hist, mask, target, label in loader:
            hist, mask, target, label = (t.cuda(non_blocking=True) for t in (hist, mask, target, label))
            loss = loss_fn(model(hist, mask, target), label)
            opt.zero_grad()
            loss.backward()
            opt.step()

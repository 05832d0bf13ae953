"""Self-attentive sequential recommender (SASRec-like) with a padding mask over item histories."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.d_k = d_model // n_heads
        self.h = n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)

    def head_split(self, x):
        return x.view(x.size(0), -1, self.h, self.d_k).transpose(1, 2)

    def forward(self, q, k, v, mask):
        q, k, v = self.head_split(self.q(q)), self.head_split(self.k(k)), self.head_split(self.v(v))
        scores = torch.matmul(q, k.transpose(-2, -1)) / self.d_k ** 0.5
        scores = scores.masked_fill(mask == 0, -np.inf)
        scores = F.softmax(scores, dim=-1)  # expect: fully-masked-softmax
        out = torch.matmul(scores, v)
        return out.transpose(1, 2).reshape(out.size(0), -1, self.h * self.d_k)


class SASRec(nn.Module):
    def __init__(self, n_items, d=64, heads=2, max_len=50):
        super().__init__()
        self.item_emb = nn.Embedding(n_items + 1, d, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, d)
        self.attn = MultiHeadAttention(d, heads)
        self.norm = nn.LayerNorm(d)

    def forward(self, history, candidates):
        valid = (history > 0)
        pos = torch.arange(history.size(1), device=history.device)
        x = self.item_emb(history) + self.pos_emb(pos)[None]
        mask = valid[:, None, None, :].long()
        x = self.norm(x + self.attn(x, x, x, mask))
        his_vec = (x * valid[..., None]).sum(1) / valid.sum(1, keepdim=True).clamp(min=1)
        return (his_vec[:, None, :] * self.item_emb(candidates)).sum(-1)


def bpr_step(model, batch, optimizer):
    model.train()
    scores = model(batch["history"], batch["candidates"])
    pos, neg = scores[:, 0], scores[:, 1:]
    loss = -F.logsigmoid(pos[:, None] - neg).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()

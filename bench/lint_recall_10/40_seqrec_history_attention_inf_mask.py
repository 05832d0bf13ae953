# Source: https://github.com/THUwangcy/ReChorus/commit/3499e224537d509ed981d53c7978c5c5452b5014
# Pitfall: the recommender's self-attention fills padded history positions with -np.inf before the softmax;
#   a user whose history window is all padding gets a row of NaNs (the fix zeroes NaN scores after the softmax).
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn


class HistoryAttention(nn.Module):
    def __init__(self, d_model, n_heads=2):
        super().__init__()
        self.h = n_heads
        self.d_k = d_model // n_heads
        self.q_linear = nn.Linear(d_model, d_model)
        self.k_linear = nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)

    @staticmethod
    def attend(q, k, v, d_k, mask):
        scores = torch.matmul(q, k.transpose(-2, -1)) / d_k ** 0.5
        scores = scores.masked_fill(mask == 0, -np.inf)
        scores = (scores - scores.max()).softmax(dim=-1)  # expect: fully-masked-softmax
        return torch.matmul(scores, v)

    def forward(self, x, valid):
        bs, n, _ = x.shape
        q = self.q_linear(x).view(bs, n, self.h, self.d_k).transpose(1, 2)
        k = self.k_linear(x).view(bs, n, self.h, self.d_k).transpose(1, 2)
        v = self.v_linear(x).view(bs, n, self.h, self.d_k).transpose(1, 2)
        mask = valid[:, None, None, :].long()
        out = self.attend(q, k, v, self.d_k, mask)
        return out.transpose(1, 2).reshape(bs, n, -1)


class SASRecLite(nn.Module):
    def __init__(self, n_items, d_model=64, max_len=50):
        super().__init__()
        self.item_emb = nn.Embedding(n_items + 1, d_model, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, d_model)
        self.attn = HistoryAttention(d_model)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, history, candidates):
        valid = history > 0
        pos = torch.arange(history.size(1), device=history.device)
        h = self.item_emb(history) + self.pos_emb(pos)[None]
        h = self.norm(h + self.attn(h, valid))
        user = h[:, -1]
        return (user[:, None, :] * self.item_emb(candidates)).sum(-1)


def bpr_step(model, optimizer, history, pos_items, neg_items):
    scores = model(history, torch.stack([pos_items, neg_items], dim=1))
    loss = -torch.nn.functional.logsigmoid(scores[:, 0] - scores[:, 1]).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()

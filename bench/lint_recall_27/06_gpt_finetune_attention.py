"""Causal self-attention block used when fine-tuning a GPT-style model on ROCStories."""
import math
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, n_embd, n_head, n_ctx, attn_pdrop=0.1, scale=True):
        super().__init__()
        assert n_embd % n_head == 0
        self.n_head = n_head
        self.split_size = n_embd
        self.scale = scale
        self.register_buffer("b", torch.tril(torch.ones(n_ctx, n_ctx)).view(1, 1, n_ctx, n_ctx))
        self.c_attn = nn.Linear(n_embd, n_embd * 3)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.attn_dropout = nn.Dropout(attn_pdrop)

    def _attn(self, q, k, v):
        w = torch.matmul(q, k)
        if self.scale:
            w = w / math.sqrt(v.size(-1))
        b = self.b[:, :, :w.size(-2), :w.size(-1)]
        w = w * b + -1e9 * (1 - b)
        w = nn.Softmax()(w)  # expect: softmax-without-dim
        w = self.attn_dropout(w)
        return torch.matmul(w, v)

    def split_heads(self, x, k=False):
        new_shape = x.size()[:-1] + (self.n_head, x.size(-1) // self.n_head)
        x = x.view(*new_shape)
        return x.permute(0, 2, 3, 1) if k else x.permute(0, 2, 1, 3)

    def merge_heads(self, x):
        x = x.permute(0, 2, 1, 3).contiguous()
        return x.view(*x.size()[:-2], x.size(-2) * x.size(-1))

    def forward(self, x):
        query, key, value = self.c_attn(x).split(self.split_size, dim=2)
        a = self._attn(self.split_heads(query), self.split_heads(key, k=True), self.split_heads(value))
        return self.c_proj(self.merge_heads(a))


def train_step(model, lm_head, clf_head, batch, optimizer, lm_coef=0.5):
    x, mask, y = batch
    model.train()
    h = model(x)
    lm_logits = lm_head(h)
    clf_logits = clf_head(h, x)
    lm_loss = nn.functional.cross_entropy(lm_logits[:, :-1].flatten(0, 1), x[:, 1:, 0].flatten(), reduction="none")
    lm_loss = (lm_loss.view(x.size(0), -1) * mask[:, 1:]).sum(1) / mask[:, 1:].sum(1).clamp(min=1)
    clf_loss = nn.functional.cross_entropy(clf_logits, y)
    loss = clf_loss + lm_coef * lm_loss.mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()

"""Summarization seq2seq: hand-written encoder self-attention with a key padding mask."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads, dropout=0.1):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.qkv = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout = dropout

    def forward(self, x, key_padding_mask):
        bsz, tgt_len, embed_dim = x.size()
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(bsz, tgt_len, self.num_heads, self.head_dim).transpose(1, 2)
        k = k.view(bsz, tgt_len, self.num_heads, self.head_dim).transpose(1, 2)
        v = v.view(bsz, tgt_len, self.num_heads, self.head_dim).transpose(1, 2)
        attn_weights = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        reshaped = key_padding_mask.unsqueeze(1).unsqueeze(2)
        attn_weights = attn_weights.masked_fill(reshaped, float("-inf"))  # expect: fully-masked-softmax
        attn_weights = F.softmax(attn_weights, dim=-1)
        attn_probs = F.dropout(attn_weights, p=self.dropout, training=self.training)
        out = (attn_probs @ v).transpose(1, 2).reshape(bsz, tgt_len, embed_dim)
        return self.out_proj(out)


class Summarizer(nn.Module):
    def __init__(self, vocab, dim=128, heads=4, pad_id=1):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.attn = SelfAttention(dim, heads)
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids):
        mask = input_ids.eq(self.pad_id)
        h = self.embed(input_ids)
        h = self.norm(h + self.attn(h, mask))
        return self.lm_head(h)


def train(model, batches, lr=3e-5):
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    for input_ids, labels in batches:
        optimizer.zero_grad()
        logits = model(input_ids)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1), ignore_index=-100)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    ids = torch.randint(2, 1000, (4, 16))
    ids[3] = 1
    train(Summarizer(1000), [(ids, ids.clone())])

"""Transformer encoder-decoder for Multi30k translation: scaled dot-product attention with padding masks."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


def get_attn_padding_mask(seq_q, seq_k):
    """True where the key position is padding, broadcast over every query position."""
    len_q = seq_q.size(1)
    pad_mask = seq_k.eq(PAD).unsqueeze(1)
    return pad_mask.expand(-1, len_q, -1)


class ScaledDotProductAttention(nn.Module):
    def __init__(self, d_k, attn_dropout=0.1):
        super().__init__()
        self.temper = math.sqrt(d_k)
        self.dropout = nn.Dropout(attn_dropout)

    def forward(self, q, k, v, attn_mask=None):
        attn = torch.bmm(q, k.transpose(1, 2)) / self.temper
        if attn_mask is not None:
            attn = attn.masked_fill(attn_mask, -float("inf"))
        attn = F.softmax(attn, dim=-1)  # expect: fully-masked-softmax
        attn = self.dropout(attn)
        return torch.bmm(attn, v), attn


class MultiHeadAttention(nn.Module):
    def __init__(self, n_head, d_model, d_k, d_v, dropout=0.1):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k)
        self.w_ks = nn.Linear(d_model, n_head * d_k)
        self.w_vs = nn.Linear(d_model, n_head * d_v)
        self.attention = ScaledDotProductAttention(d_k)
        self.proj = nn.Linear(n_head * d_v, d_model)
        self.layer_norm = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, q, k, v, attn_mask=None):
        b, len_q, _ = q.size()
        len_k = k.size(1)
        residual = q
        q = self.w_qs(q).view(b, len_q, self.n_head, self.d_k).transpose(1, 2).reshape(-1, len_q, self.d_k)
        k = self.w_ks(k).view(b, len_k, self.n_head, self.d_k).transpose(1, 2).reshape(-1, len_k, self.d_k)
        v = self.w_vs(v).view(b, len_k, self.n_head, self.d_v).transpose(1, 2).reshape(-1, len_k, self.d_v)
        if attn_mask is not None:
            attn_mask = attn_mask.repeat_interleave(self.n_head, dim=0)
        out, attn = self.attention(q, k, v, attn_mask=attn_mask)
        out = out.view(b, self.n_head, len_q, self.d_v).transpose(1, 2).reshape(b, len_q, -1)
        return self.layer_norm(self.dropout(self.proj(out)) + residual), attn


class EncoderLayer(nn.Module):
    def __init__(self, d_model=512, d_inner=2048, n_head=8, d_k=64, d_v=64):
        super().__init__()
        self.slf_attn = MultiHeadAttention(n_head, d_model, d_k, d_v)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_inner), nn.ReLU(), nn.Linear(d_inner, d_model))
        self.norm = nn.LayerNorm(d_model)

    def forward(self, enc_input, slf_attn_mask):
        enc_output, _ = self.slf_attn(enc_input, enc_input, enc_input, attn_mask=slf_attn_mask)
        return self.norm(enc_output + self.ffn(enc_output))


def train_epoch(model, batches, optimizer, device):
    model.train()
    total_loss, n_words = 0.0, 0
    for src_seq, tgt_seq in batches:
        src_seq, tgt_seq = src_seq.to(device), tgt_seq.to(device)
        gold = tgt_seq[:, 1:]
        optimizer.zero_grad()
        pred = model(src_seq, tgt_seq[:, :-1])
        loss = F.cross_entropy(pred.reshape(-1, pred.size(-1)), gold.reshape(-1), ignore_index=PAD, reduction="sum")
        n_word = gold.ne(PAD).sum().item()
        (loss / n_word).backward()
        optimizer.step()
        total_loss += loss.item()
        n_words += n_word
    return total_loss / n_words

"""Tiny GPT-2-style phrase model under float16 autocast -- fixed as upstream by masking with 1e4 instead
of 1e10: the constant stays inside the half-precision range, fully padded query rows get a finite uniform
softmax instead of NaN, and training proceeds (nothing else changed).
"""
import argparse
import math
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

VOCAB, PAD, T, D, HEADS = 30, 0, 16, 32, 2
MASK_VALUE = 1e4
succ = torch.randint(1, VOCAB, (VOCAB, 2))


rng = random.Random(args.seed)
succ_list = succ.tolist()


def make_phrases(n):
    seqs = torch.full((n, T), PAD)
    for i in range(n):
        length, tok, row = rng.randint(4, T), rng.randint(1, VOCAB - 1), []
        for _ in range(length):
            row.append(tok)
            r = rng.random()
            tok = succ_list[tok][0] if r < 0.7 else succ_list[tok][1] if r < 0.9 else rng.randint(1, VOCAB - 1)
        seqs[i, T - length:] = torch.tensor(row)
    return seqs


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.c_attn, self.c_proj = nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))
        self.register_buffer("causal", torch.tril(torch.ones(T, T)))

    def attn(self, x, keep_key):
        B = x.shape[0]
        q, k, v = self.c_attn(x).split(D, dim=2)
        q, k, v = (t.view(B, T, HEADS, D // HEADS).transpose(1, 2) for t in (q, k, v))
        w = q @ k.transpose(-2, -1) / math.sqrt(D // HEADS)
        b = (self.causal[None, None] * keep_key[:, None, None, :]).to(w.dtype)
        w = w * b - MASK_VALUE * (1 - b)
        out = F.softmax(w, dim=-1) @ v
        return self.c_proj(out.transpose(1, 2).reshape(B, T, D))

    def forward(self, x, keep_key):
        x = x + self.attn(self.ln1(x), keep_key)
        return x + self.mlp(self.ln2(x))


class PhraseGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(VOCAB, D), nn.Embedding(T, D)
        self.block, self.ln_f, self.head = Block(), nn.LayerNorm(D), nn.Linear(D, VOCAB)

    def forward(self, idx):
        keep_key = (idx != PAD).float()
        x = self.wte(idx) + self.wpe(torch.arange(T))
        return self.head(self.ln_f(self.block(x, keep_key)))


def lm_loss(logits, idx):
    target = idx[:, 1:].clone()
    target[idx[:, :-1] == PAD] = -100
    return F.cross_entropy(logits[:, :-1].float().reshape(-1, VOCAB), target.reshape(-1), ignore_index=-100)


train, held = make_phrases(2000), make_phrases(400)
model = PhraseGPT()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
recent = []
for step in range(150):
    batch = train[torch.randint(0, len(train), (32,))]
    with torch.autocast("cpu", dtype=torch.float16):
        loss = lm_loss(model(batch), batch)
    opt.zero_grad()
    loss.backward()
    opt.step()
    recent = (recent + [loss.item()])[-20:]
    if step % 30 == 29:
        print(f"step {step + 1} loss {sum(recent) / len(recent):.4f}")

with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
    pred = model(held)[:, :-1].argmax(-1)
    valid = held[:, :-1] != PAD
    acc = (pred == held[:, 1:])[valid].float().mean().item()
print(f"final_loss={sum(recent) / len(recent):.6g} acc={acc:.4f}")

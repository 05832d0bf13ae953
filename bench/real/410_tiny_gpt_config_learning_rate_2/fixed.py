"""Small GPT-style language model (two causal Transformer blocks of width 64, tied head) trained through a config-driven Trainer class with Adam on next-token cross-entropy.

Fixed: the run config's `learning_rate` is set back to a GPT-style value (2.5e-3 for this small model and
short schedule) instead of `2`.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

CONFIG = {"vocab": 32, "ctx": 32, "width": 64, "heads": 4, "layers": 2,
          "batch_size": 16, "train_steps": 200, "learning_rate": 2.5e-3}

# sparse Markov chain: each token has 3 likely successors
trans = torch.full((CONFIG["vocab"], CONFIG["vocab"]), -4.0)
for t in range(CONFIG["vocab"]):
    trans[t, torch.randperm(CONFIG["vocab"])[:3]] = torch.randn(3) + 2.0
trans = trans.softmax(-1)


def sample(n):
    seq = torch.empty(n, CONFIG["ctx"] + 1, dtype=torch.long)
    seq[:, 0] = torch.randint(0, CONFIG["vocab"], (n,))
    for i in range(1, CONFIG["ctx"] + 1):
        seq[:, i] = torch.multinomial(trans[seq[:, i - 1]], 1).squeeze(1)
    return seq


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        a = self.ln1(x)
        x = x + self.attn(a, a, a, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg["vocab"], cfg["width"])
        self.pos = nn.Parameter(torch.randn(cfg["ctx"], cfg["width"]) * 0.02)
        self.blocks = nn.ModuleList(Block(cfg["width"], cfg["heads"]) for _ in range(cfg["layers"]))
        self.ln = nn.LayerNorm(cfg["width"])
        self.register_buffer("mask", torch.triu(torch.full((cfg["ctx"], cfg["ctx"]), float("-inf")), 1))

    def forward(self, idx):
        x = self.tok(idx) + self.pos[: idx.shape[1]]
        for b in self.blocks:
            x = b(x, self.mask)
        return self.ln(x) @ self.tok.weight.T


class Trainer:
    def __init__(self, model, cfg):
        self.model, self.cfg = model, cfg
        self.opt = torch.optim.Adam(model.parameters(), lr=cfg["learning_rate"])

    def step(self, batch):
        logits = self.model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, self.cfg["vocab"]), batch[:, 1:].reshape(-1))
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, batch):
        logits = self.model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, self.cfg["vocab"]), batch[:, 1:].reshape(-1)).item()
        acc = (logits.argmax(-1) == batch[:, 1:]).float().mean().item()
        return loss, acc


train_data, val_data = sample(2000), sample(64)
trainer = Trainer(TinyGPT(CONFIG), CONFIG)
for step in range(CONFIG["train_steps"]):
    idx = torch.randint(0, len(train_data), (CONFIG["batch_size"],))
    loss = trainer.step(train_data[idx])
    if step % 50 == 0:
        print(f"step {step} loss {loss:.4f}")

val_loss, val_acc = trainer.evaluate(val_data)
print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")

"""Causal LM trained with LOMO's fused SGD update (parameters updated inside backward, no
momentum, no Adam) at an AdamW-sized learning rate of 5e-5: the loss does not go down.

Source: https://github.com/OpenLMLab/LOMO/issues/50 (小学习率问题, "small learning-rate problem")
Report: "我在使用小学习率5e-5,接近一万条特殊格式的训练数据进行训练，发现loss不降，是哪里设置的有问题吗？"
(training with a small learning rate of 5e-5 on ~10k examples of a special format, the loss does
not decrease -- what is misconfigured?). Maintainer: "你好，这是因为学习率太小了，可以试着将学习率调到1e-2
1e-3级别。" (the learning rate is too small; try 1e-2 .. 1e-3). LOMO fuses the gradient computation
and a plain SGD step: each parameter is updated as soon as its gradient is accumulated and the
gradient is freed. Reproduced (trained from scratch rather than fine-tuning a pretrained LLM) with a
small decoder-only transformer (2 layers, d_model 64,
4 heads, token + position embeddings) whose parameters get the same fused SGD update through
post-accumulate-grad hooks (gradient-norm clipping omitted), on ~10k synthetic examples of a
fixed "special format" ("<k> key = value ; <v> value-reversed <e>" over a 40-token vocabulary),
batch 32, next-token cross-entropy; `acc` is next-token accuracy on held-out examples.

expect: lr-too-low
symptom: final-loss-ratio 1.5
batch: 4
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

V, T = 40, 16
K, EQ, SEMI, VAL, END = 35, 36, 37, 38, 39


def make(n):
    """'<k> a b c = d e f ; <v> f e d <e>' style records; keys/values are tokens 0..34."""
    key = torch.randint(0, 35, (n, 3))
    val = (key * 7 + 3) % 35
    seq = torch.cat([torch.full((n, 1), K), key, torch.full((n, 1), EQ), val, torch.full((n, 1), SEMI),
                     torch.full((n, 1), VAL), val.flip(1), torch.full((n, 1), END)], 1)
    return F.pad(seq, (0, T + 1 - seq.shape[1]), value=END)


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, d=64, h=4, n_layers=2):
        super().__init__()
        self.tok = nn.Embedding(V, d)
        self.pos = nn.Embedding(T, d)
        self.blocks = nn.ModuleList(Block(d, h) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, V)

    def forward(self, idx):
        t = idx.shape[1]
        mask = torch.triu(torch.ones(t, t, dtype=torch.bool), 1)
        x = self.tok(idx) + self.pos(torch.arange(t))
        for b in self.blocks:
            x = b(x, mask)
        return self.lm_head(self.ln_f(x))


class LOMO:
    """Fused update: p <- p - lr * grad inside backward, then the gradient is dropped."""

    def __init__(self, model, lr):
        self.lr = lr
        for p in model.parameters():
            p.register_post_accumulate_grad_hook(self._update)

    @torch.no_grad()
    def _update(self, p):
        p.add_(p.grad, alpha=-self.lr)
        p.grad = None

    def fused_backward(self, loss):
        loss.backward()


train, test = make(10000), make(1000)
model = TinyLM()
optimizer = LOMO(model, lr=5e-5)
losses = []
for epoch in range(2):
    perm = torch.randperm(len(train))
    for i in range(0, len(perm), 32):
        batch = train[perm[i:i + 32]]
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, V), batch[:, 1:].reshape(-1))
        optimizer.fused_backward(loss)
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-50:]) / 50:.4f}")

with torch.no_grad():
    acc = (model(test[:, :-1]).argmax(-1) == test[:, 1:]).float().mean().item()
print(f"final_loss={sum(losses[-50:]) / 50:.6g} acc={acc:.4f}")

# Source: https://github.com/karpathy/nanoGPT/issues/206
# Pitfall: the micro-step loop calls backward on each micro-batch loss without dividing it by
# gradient_accumulation_steps, so the summed gradient is k times too large (and grad_clip k times too tight).
# Reproduced in our own words, not the original code.
import math
from contextlib import nullcontext

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8
block_size = 64
gradient_accumulation_steps = 5
learning_rate = 6e-4
grad_clip = 1.0
max_iters = 20
device = "cuda" if torch.cuda.is_available() else "cpu"
dtype = "bfloat16" if device == "cuda" else "float32"
ctx = nullcontext() if device == "cpu" else torch.autocast(device_type="cuda", dtype=torch.bfloat16)

data = np.random.randint(0, 256, size=100_000, dtype=np.uint16)


def get_batch():
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy(data[i:i + block_size].astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy(data[i + 1:i + 1 + block_size].astype(np.int64)) for i in ix])
    return x.to(device), y.to(device)


class TinyGPT(nn.Module):
    def __init__(self, vocab=256, d=128, n_layer=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(block_size, d)
        layer = nn.TransformerEncoderLayer(d, 4, 4 * d, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, n_layer)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx, targets):
        t = idx.size(1)
        mask = torch.triu(torch.full((t, t), float("-inf"), device=idx.device), diagonal=1)
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
        logits = self.head(self.blocks(x, mask=mask))
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def get_lr(it, warmup=5):
    if it < warmup:
        return learning_rate * (it + 1) / warmup
    return learning_rate * 0.5 * (1 + math.cos(math.pi * (it - warmup) / (max_iters - warmup)))


model = TinyGPT().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate, betas=(0.9, 0.95), weight_decay=0.1)
X, Y = get_batch()
for it in range(max_iters):
    for group in optimizer.param_groups:
        group["lr"] = get_lr(it)
    model.train()
    for micro_step in range(gradient_accumulation_steps):
        with ctx:
            logits, loss = model(X, Y)
        X, Y = get_batch()
        loss.backward()  # expect: accumulation-not-averaged
    if grad_clip != 0.0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    print(f"iter {it}: loss {loss.item():.4f}")

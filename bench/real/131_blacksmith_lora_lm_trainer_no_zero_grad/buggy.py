"""LoRA fine-tuning of a small causal language model in a Trainer class whose optimizer step never calls zero_grad: each step's adapter gradient is added to all previous ones, the update keeps following the stale running sum, and the fine-tuning loss ends far above a run that clears the gradients.

Source: https://github.com/tenstorrent/tt-blacksmith/pull/711 ([Trainer] Fix Bug Where Zero Grad was Left Out)
Report / fix: "In Trainer class training for LoRA LLM, we forgot to do `zero_grad` on optimizer
after each optimizer step ... This PR adds flag `zero_grad` to True, to our optimizer step."
Reproduced with the shape of that trainer (a Trainer with `train_step` -> forward, loss,
backward, and an `optimizer_step(zero_grad=...)` helper; LoRA adapters of rank 8 on the
attention and MLP projections of a frozen decoder-only transformer, AdamW on the adapter
parameters only) on CPU: the "pretrained" base is a 2-layer character transformer trained for
a short warm-up inside the script on one synthetic text style, then frozen and adapted with
LoRA to a second style (different word list and punctuation). `optimizer_step` is called
without zero_grad. The printed loss is the mean fine-tuning loss (next-character cross-entropy)
of the last 20 steps, `acc` the next-character accuracy on held-out fine-tuning text.

expect: missing-zero-grad
symptom: final-loss-ratio 1.3
batch: 7
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

CHARS = "abcdefghijklmnopqrstuvwxyz .,;!?\n"
V, T, D = len(CHARS), 48, 64
ZERO_GRAD = False


def corpus(words, punct, n_words):
    idx = torch.randint(0, len(words), (n_words,))
    text = []
    for k, i in enumerate(idx.tolist()):
        text.append(words[i])
        text.append(punct[k % len(punct)] if k % 5 == 4 else " ")
    return torch.tensor([CHARS.index(c) for c in "".join(text)])


def batches(data, bs):
    starts = torch.randint(0, len(data) - T - 1, (bs,))
    x = torch.stack([data[s:s + T] for s in starts])
    y = torch.stack([data[s + 1:s + T + 1] for s in starts])
    return x, y


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=8, alpha=16):
        super().__init__()
        self.base = base
        self.lora_a = nn.Parameter(torch.randn(r, base.in_features) / math.sqrt(base.in_features))
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_a.t() @ self.lora_b.t()) * self.scale


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.qkv, self.proj = nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.fc1, self.fc2 = nn.Linear(D, 4 * D), nn.Linear(4 * D, D)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(b, t, 3, 4, D // 4).permute(2, 0, 3, 1, 4)
        att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(att.transpose(1, 2).reshape(b, t, D))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class CharLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok, self.pos = nn.Embedding(V, D), nn.Parameter(torch.randn(T, D) * 0.02)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.ln, self.head = nn.LayerNorm(D), nn.Linear(D, V)

    def forward(self, x):
        h = self.tok(x) + self.pos[: x.shape[1]]
        for blk in self.blocks:
            h = blk(h)
        return self.head(self.ln(h))


class Trainer:
    def __init__(self, model, params, lr):
        self.model = model
        self.optimizer = torch.optim.AdamW(params, lr=lr, weight_decay=0.0)

    def optimizer_step(self, zero_grad=False):
        self.optimizer.step()
        if zero_grad:
            self.optimizer.zero_grad()

    def train_step(self, x, y):
        logits = self.model(x)
        loss = F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))
        loss.backward()
        self.optimizer_step(zero_grad=ZERO_GRAD)
        return loss.item()


base_words = ["the", "model", "data", "train", "loss", "step", "grad", "layer", "batch", "rate"]
ft_words = ["quiet", "river", "stone", "moss", "winter", "pine", "hollow", "fox", "lantern", "ash"]
base_text = corpus(base_words, ".,", 4000)
ft_text, ft_val = corpus(ft_words, ";!?\n", 3000), corpus(ft_words, ";!?\n", 600)

model = CharLM()
warmup = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(100):  # stand-in for the pretrained checkpoint
    x, y = batches(base_text, 32)
    loss = F.cross_entropy(model(x).reshape(-1, V), y.reshape(-1))
    warmup.zero_grad()
    loss.backward()
    warmup.step()
print(f"base model loss {loss.item():.4f}")

for p in model.parameters():
    p.requires_grad_(False)
for blk in model.blocks:
    for name in ("qkv", "proj", "fc1", "fc2"):
        setattr(blk, name, LoRALinear(getattr(blk, name)))
lora_params = [p for n, p in model.named_parameters() if "lora_" in n]
trainer = Trainer(model, lora_params, lr=2e-3)

losses = []
for step in range(150):
    losses.append(trainer.train_step(*batches(ft_text, 24)))
    if step % 40 == 0:
        print(f"finetune step {step} loss {losses[-1]:.4f}")

with torch.no_grad():
    x, y = batches(ft_val, 64)
    acc = (model(x).argmax(-1) == y).float().mean().item()
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={acc:.4f}")

"""Supervised fine-tuning trainer for a small causal transformer (token + position embeddings, 2 pre-norm blocks, AdamW, loss on answer tokens only) whose train_step never clears the optimizer's gradients: every step adds its gradient onto all the previous ones, the update direction is dominated by stale gradients, the loss jumps back up whenever the summed gradient overshoots and ends an order of magnitude above that of the same trainer with zero_grad.

Source: https://github.com/meta-pytorch/torchforge/pull/71 ([ez] zero grad every step)
Report: "Fixing a dumb bug where we weren't zeroing grad on optimizers after each step"; the PR
adds the zero_grad call to the trainer's step. Reproduced with a trainer class in that style
(`Trainer.train_step(batch)` doing forward, masked cross-entropy, backward, optimizer step and
LR-scheduler step) around a 2-layer GPT-style model on 1,600 synthetic prompt/answer sequences
(the answer is the prompt's digit string reversed, then an end token), AdamW lr 1e-3 with a
warm-up, batch 32. The printed loss is the mean answer-token loss of the last epoch, `acc` the
teacher-forced answer-token accuracy on held-out sequences.

expect: missing-zero-grad
symptom: final-loss-ratio 3
batch: 9
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

PAD, SEP, EOS, DIGIT0 = 0, 1, 2, 3
VOCAB, L = 13, 7
CTX = 2 * L + 2


def make_data(n):
    digits = torch.randint(0, 10, (n, L)) + DIGIT0
    seq = torch.cat([digits, torch.full((n, 1), SEP), digits.flip(1), torch.full((n, 1), EOS)], 1)
    inputs, targets = seq[:, :-1], seq[:, 1:].clone()
    targets[:, :L] = -100                      # no loss on the prompt
    return inputs, targets


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, d=64, heads=4, layers=2):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, d)
        self.pos = nn.Embedding(CTX, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, VOCAB, bias=False)

    def forward(self, ids):
        T = ids.shape[1]
        mask = torch.triu(torch.full((T, T), float("-inf")), 1)
        x = self.tok(ids) + self.pos(torch.arange(T))
        for b in self.blocks:
            x = b(x, mask)
        return self.head(self.ln(x))


class Trainer:
    def __init__(self, model, lr=1e-3, warmup=50):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, lambda s: min(1.0, (s + 1) / warmup))

    def train_step(self, batch):
        inputs, targets = batch
        logits = self.model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1), ignore_index=-100)
        loss.backward()
        self.optimizer.step()
        self.scheduler.step()
        return loss.item()


train_in, train_tg = make_data(1600)
test_in, test_tg = make_data(400)
loader = DataLoader(TensorDataset(train_in, train_tg), batch_size=32, shuffle=True)
trainer = Trainer(TinyGPT())

for epoch in range(5):
    losses = [trainer.train_step(batch) for batch in loader]
    print(f"epoch {epoch} loss {sum(losses) / len(losses):.4f}")

with torch.no_grad():
    pred = trainer.model(test_in).argmax(-1)
    keep = test_tg != -100
    acc = (pred[keep] == test_tg[keep]).float().mean().item()
print(f"final_loss={sum(losses) / len(losses):.6g} acc={acc:.4f}")

"""Character-level language model for short two-line verses (embedding + 2-layer GRU + linear head, next-character cross-entropy, AdamW) trained on a tiny corpus of a few hundred verses for a fixed, large number of steps with no validation-based stopping: after a few hundred steps the training loss keeps falling while the model starts memorising the individual verses, and the validation loss climbs well above its minimum (the default AdamW weight decay does not prevent it) -- the checkpoint that is kept at the end is badly overfitted.

Source: https://github.com/facebookresearch/fairseq/issues/90 (the overfitting problem)
Report: "i have set the weight_decay=1e-07, but the valid_loss is inreasing while the train loss is
decreasing" -- a text generator trained on a small corpus (Flickr8k captions) with --max-epoch 1000;
the maintainer: "Weight decay is not a magic bullet it will not stop overfitting if other parameters
are off". Reproduced with
360 synthetic verses (two lines built from a 150-word vocabulary with a simple metre and
rhyme-like endings, about 60 characters), 300 for training and 60 for validation, random
40-character windows, embedding 48, GRU 2x128, AdamW lr 3e-3, batches of 24, 420 steps. The
printed loss is the validation cross-entropy of the final model, `acc` its next-character
accuracy on the validation windows.

expect: overfitting
symptom: final-loss-ratio 1.15
batch: 11
"""
import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
random.seed(args.seed)
torch.set_num_threads(1)

SEQ, STEPS = 40, 420


def make_corpus(n):
    letters = "abcdefghiklmnoprstuvy"
    words = ["".join(random.choice(letters) for _ in range(random.randint(2, 7))) for _ in range(150)]
    endings = ["am", "ai", "ul", "um", "il"]
    verses = []
    for _ in range(n):
        end = random.choice(endings)
        lines = []
        for k in (4, 3):
            ws = random.sample(words, k)
            ws[-1] = ws[-1][:-2] + end if len(ws[-1]) > 3 else ws[-1] + end
            lines.append(" ".join(ws))
        verses.append("\n".join(lines) + "\n\n")
    return verses


verses = make_corpus(360)
chars = sorted(set("".join(verses)))
stoi = {c: i for i, c in enumerate(chars)}
encode = lambda s: torch.tensor([stoi[c] for c in s])
train_text, val_text = encode("".join(verses[:300])), encode("".join(verses[300:]))


def batch(data, n=24):
    ix = torch.randint(0, len(data) - SEQ - 1, (n,))
    return torch.stack([data[i:i + SEQ] for i in ix]), torch.stack([data[i + 1:i + SEQ + 1] for i in ix])


class CharGRU(nn.Module):
    def __init__(self, v):
        super().__init__()
        self.emb = nn.Embedding(v, 48)
        self.gru = nn.GRU(48, 128, num_layers=2, batch_first=True)
        self.head = nn.Linear(128, v)

    def forward(self, x):
        return self.head(self.gru(self.emb(x))[0])


def evaluate(model):
    model.eval()
    xs = torch.stack([val_text[i:i + SEQ] for i in range(0, len(val_text) - SEQ - 1, SEQ)])
    ys = torch.stack([val_text[i + 1:i + SEQ + 1] for i in range(0, len(val_text) - SEQ - 1, SEQ)])
    with torch.no_grad():
        out = model(xs)
        loss = F.cross_entropy(out.reshape(-1, len(chars)), ys.reshape(-1)).item()
        acc = (out.argmax(-1) == ys).float().mean().item()
    model.train()
    return loss, acc


model = CharGRU(len(chars))
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
for step in range(STEPS):
    xb, yb = batch(train_text)
    loss = F.cross_entropy(model(xb).reshape(-1, len(chars)), yb.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} train {loss.item():.4f} val {evaluate(model)[0]:.4f}")

val_loss, acc = evaluate(model)
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")

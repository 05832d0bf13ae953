"""Character-level verse language model -- fixed by training only as long as the validation
loss improves: the validation loss is checked every 25 steps, training stops after
4 checks without improvement and the best checkpoint is restored (nothing else changed).
"""
import argparse
import copy
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
best_val, best_state, bad = float("inf"), None, 0
for step in range(STEPS):
    xb, yb = batch(train_text)
    loss = F.cross_entropy(model(xb).reshape(-1, len(chars)), yb.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 25 == 0:
        v = evaluate(model)[0]
        print(f"step {step} train {loss.item():.4f} val {v:.4f}")
        if v < best_val:
            best_val, best_state, bad = v, copy.deepcopy(model.state_dict()), 0
        else:
            bad += 1
            if bad >= 4:
                break

model.load_state_dict(best_state)
val_loss, acc = evaluate(model)
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")

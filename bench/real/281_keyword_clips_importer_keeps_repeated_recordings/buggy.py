"""Spoken-keyword classifier (40-dim log-mel summary features per clip, 12 keywords, a one-hidden-layer
MLP trained with Adam for a fixed budget of 240 mini-batch steps through a shuffled DataLoader)
whose corpus importer keeps repeated recordings: next to the 2,500 distinct clips it imports the
same 80 clips again and again (120 extra copies each), so four out of five rows the loader serves
are copies of 80 recordings. The training budget is spent re-fitting those few clips and the
validation loss on distinct unseen clips ends up clearly worse than when each clip is imported once.

Source: https://github.com/common-voice/commonvoice-fr/issues/102 (Comparaison Common Voice v3 FR -- Duplicatas)
Report: "Avec 8 doublons, le WER se déteriore assez (9% -> 18% sur M-AILABS)" -- letting the
importer keep duplicates of the same material made the trained model clearly worse on other
speech. Reproduced with synthetic clips (one prototype feature vector per keyword plus a
per-speaker offset and noise, 5 % of labels noisy as in crowd-sourced data); the importer appends
120 copies of 80 clips to the 2,500 distinct ones; Adam lr 1e-3, batch 64, 240 steps. The printed
loss is the cross-entropy on 1,000 held-out clips, `acc` the held-out accuracy.

expect: data-duplicates
symptom: final-loss-ratio 1.2
batch: 17
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_KEYWORDS, N_FEAT = 12, 40
prototypes = torch.randn(N_KEYWORDS, N_FEAT)
speakers = 0.8 * torch.randn(60, N_FEAT)


def record(n, noisy=0.0):
    y = torch.randint(0, N_KEYWORDS, (n,))
    spk = torch.randint(0, 60, (n,))
    x = prototypes[y] + speakers[spk] + 1.6 * torch.randn(n, N_FEAT)
    flip = torch.rand(n) < noisy
    y = torch.where(flip, torch.randint(0, N_KEYWORDS, (n,)), y)
    return x, y


def import_corpus(x, y, n_featured=80, copies=120):
    rows = list(range(len(x)))
    featured = list(range(n_featured))
    rows += featured * copies
    idx = torch.tensor(rows)
    return x[idx], y[idx]


x_clips, y_clips = record(2500, noisy=0.05)
x_tr, y_tr = import_corpus(x_clips, y_clips)
x_val, y_val = record(1000)

model = nn.Sequential(nn.Linear(N_FEAT, 128), nn.ReLU(), nn.Linear(128, N_KEYWORDS))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=64, shuffle=True)

STEPS = 240
step = 0
while step < STEPS:
    for xb, yb in loader:
        model.train()
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        step += 1
        if step % 60 == 0:
            model.eval()
            with torch.no_grad():
                val_logits = model(x_val)
                val_loss = loss_fn(val_logits, y_val).item()
            print(f"step {step} train {loss.item():.4f} val {val_loss:.4f}")
        if step == STEPS:
            break

acc = (val_logits.argmax(1) == y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")

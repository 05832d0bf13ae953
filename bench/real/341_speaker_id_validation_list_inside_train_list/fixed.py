"""Speaker-identification MLP -- fixed as the issue asks: the validation utterances are removed from the
training list, so the two splits are disjoint and the validation loss measures unseen utterances
(nothing else changed).
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

SPEAKERS, UTTS, D = 40, 30, 64
voice = torch.randn(SPEAKERS, D)
X = (voice[:, None, :] + 1.5 * torch.randn(SPEAKERS, UTTS, D)).reshape(-1, D)
Y = torch.arange(SPEAKERS).repeat_interleave(UTTS)

all_utts = torch.randperm(len(X))
val_list = all_utts[:240]
train_list = all_utts[240:]
print(f"train utterances {len(train_list)}, validation utterances {len(val_list)}")

model = nn.Sequential(nn.Linear(D, 256), nn.ReLU(), nn.Linear(256, SPEAKERS))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(10):
    order = train_list[torch.randperm(len(train_list))]
    for i in range(0, len(order), 32):
        idx = order[i:i + 32]
        loss = F.cross_entropy(model(X[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        train_loss = F.cross_entropy(model(X[train_list]), Y[train_list]).item()
        logits = model(X[val_list])
        val_loss = F.cross_entropy(logits, Y[val_list]).item()
        val_acc = (logits.argmax(1) == Y[val_list]).float().mean().item()
    print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f} acc {val_acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")

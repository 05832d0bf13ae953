"""Speaker-identification classifier: an MLP maps a 64-d utterance embedding (averaged acoustic features) to one of 40 speakers (cross-entropy, Adam, batch 32). The split is read from two list files, and the training list was generated from the full utterance list without removing the validation utterances, so every validation utterance is also a training utterance: the validation loss simply tracks the training loss and reports near-perfect speaker recognition, while the network's real error on unseen utterances of the same speakers is several times higher.

Source: https://github.com/WeidiXie/VGG-Speaker-Recognition/issues/38 (The training set contains the validation set)
Report: "The dataset split file `meta/voxlb2_train.txt` contains audios in `meta/voxlb2_val.txt`. The
number of training examples is decreased from `1,198,728` to `985,290`, when examples in the validation
set are removed. I guess people using this repository are suffering from overfitting because of the split
error. Please remove the duplicated examples ..." (with a pandas snippet dropping the validation paths
from the training list). Reproduced with 1,200 synthetic utterance embeddings (40 speakers x 30
utterances: a per-speaker voice vector plus strong per-utterance variation), 240 of them listed for
validation, a 64-256-40 MLP, Adam lr 1e-3, 10 epochs. The printed loss is the validation cross-entropy,
`acc` the validation accuracy.

expect: data-leakage
symptom: loss-below 0.12
batch: 20
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
train_list = all_utts
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

"""Two-stage molecular embedding probe -- fixed as in the pull request: the saved training labels are
concatenated in the same [shuffled training part, validation part] order as the saved embeddings, so every
embedding is paired with its own molecule's label (nothing else changed).
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

BITS = 256
fingerprints = (torch.rand(3000, BITS) < 0.1).float()
motif = torch.zeros(BITS)
motif[torch.randperm(BITS)[:12]] = torch.randn(12).sign() * 1.5
activity = ((fingerprints @ motif + 0.3 * torch.randn(3000)) > 0).float()
train_fp, train_y = fingerprints[:2400], activity[:2400]
test_fp, test_y = fingerprints[2400:], activity[2400:]

featuriser = nn.Sequential(nn.Linear(BITS, 512), nn.Tanh())
for p in featuriser.parameters():
    p.requires_grad_(False)

# stage 1: carve out a validation subset and save embeddings
order = torch.randperm(len(train_fp))
part_idx, val_idx = order[:2160], order[2160:]
with torch.no_grad():
    saved_train_emb = torch.cat([featuriser(train_fp[part_idx]), featuriser(train_fp[val_idx])])
    saved_test_emb = featuriser(test_fp)
saved_train_y = torch.cat([train_y[part_idx], train_y[val_idx]])

# stage 2: probe on the saved embeddings
probe = nn.Sequential(nn.Linear(512, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(probe.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(saved_train_emb, saved_train_y), batch_size=64, shuffle=True)
for epoch in range(8):
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(probe(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = probe(saved_test_emb).squeeze(1)
        test_loss = F.binary_cross_entropy_with_logits(logits, test_y).item()
        acc = ((logits > 0).float() == test_y).float().mean().item()
    print(f"epoch {epoch} last batch {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

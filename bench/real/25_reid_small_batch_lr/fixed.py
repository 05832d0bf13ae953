"""Fixed version of 25_reid_small_batch_lr/buggy.py (the source and the report are in its docstring).

Fix: turn the learning rate down for batch 64 (0.05).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--lr", type=float, default=0.05)
ap.add_argument("--batch_size", type=int, default=64)
args = ap.parse_args()
torch.manual_seed(args.seed)

n_ids, feat = 40, 128
id_centers = torch.randn(n_ids, feat)
labels = torch.randint(0, n_ids, (4000,))
feats_in = id_centers[labels] + 0.8 * torch.randn(4000, feat)


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(feat, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Linear(256, 64))
        self.classifier = nn.Linear(64, n_ids)

    def forward(self, x):
        f = self.fc(x)
        return f, self.classifier(f)


net = Embedder()
optimizer = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
losses = []
for epoch in range(3):
    perm = torch.randperm(4000)
    for i in range(0, 4000, args.batch_size):
        idx = perm[i:i + args.batch_size]
        f, logits = net(feats_in[idx])
        loss = F.cross_entropy(logits, labels[idx]) + 0.1 * f.pow(2).sum(1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")

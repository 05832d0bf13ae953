"""Fixed version of 42_log_softmax_over_batch_dim/buggy.py (the source and the report are in its docstring).

Fix: log_softmax over the classes (dim 1).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

n_id = 20
id_mean = torch.randn(n_id, 32) * 1.2
target_all = torch.randint(0, n_id, (3000,))
faces = id_mean[target_all] + torch.randn(3000, 32)


class AngleLoss(nn.Module):
    def __init__(self, gamma=2):
        super().__init__()
        self.gamma = gamma

    def forward(self, output, target):
        logpt = F.log_softmax(output, 1)
        logpt = logpt.gather(1, target.view(-1, 1)).view(-1)
        pt = logpt.detach().exp()
        return (-1 * (1 - pt) ** self.gamma * logpt).mean()


net = nn.Sequential(nn.Linear(32, 128), nn.PReLU(), nn.Linear(128, 64), nn.PReLU(), nn.Linear(64, n_id))
criterion = AngleLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
losses = []
for epoch in range(3):
    perm = torch.randperm(3000)
    for i in range(0, 3000, 64):
        idx = perm[i:i + 64]
        loss = criterion(net(faces[idx]), target_all[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
with torch.no_grad():
    acc = (net(faces).argmax(1) == target_all).float().mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")

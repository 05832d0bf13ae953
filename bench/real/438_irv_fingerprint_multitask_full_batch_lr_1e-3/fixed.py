"""Multitask IRV-style activity classifier for molecular fingerprints: the same program with Adam's learning rate raised from 1e-3 to 1e-2, so the full-batch training (100 steps over all training molecules) actually fits the relevance and vote weights.
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

LR, K, TASKS, BITS = 1e-2, 5, 5, 128

scaffolds = (torch.rand(24, BITS) < 0.2).float()
scaffold_labels = (torch.rand(24, TASKS) < 0.4).float()


def make_molecules(n):
    s = torch.randint(0, 24, (n,))
    flip = (torch.rand(n, BITS) < 0.12).float()
    fp = (scaffolds[s] + flip) % 2
    y = scaffold_labels[s].clone()
    noise = torch.rand(n, TASKS) < 0.10
    y[noise] = 1 - y[noise]
    return fp, y


def tanimoto(a, b):
    inter = a @ b.T
    return inter / (a.sum(1, keepdim=True) + b.sum(1) - inter).clamp_min(1)


def neighbour_features(fp, ref_fp, ref_y, exclude_self):
    sim = tanimoto(fp, ref_fp)
    if exclude_self:
        sim.fill_diagonal_(-1)
    top_sim, top_idx = sim.topk(K, dim=1)
    return top_sim, ref_y[top_idx]  # (n, K), (n, K, TASKS)


class IRV(nn.Module):
    def __init__(self):
        super().__init__()
        self.w_sim = nn.Parameter(torch.full((TASKS,), 0.1))
        self.w_rank = nn.Parameter(torch.full((TASKS, K), 0.01))
        self.w_label = nn.Parameter(torch.zeros(TASKS, 2))
        self.b_rel = nn.Parameter(torch.zeros(TASKS))
        self.vote = nn.Parameter(torch.full((TASKS, 2), 0.02) * torch.tensor([-1.0, 1.0]))
        self.bias = nn.Parameter(torch.zeros(TASKS))

    def forward(self, sim, nb_y):
        lab = nb_y.long()  # (n, K, TASKS)
        rel = torch.sigmoid(sim.unsqueeze(-1) * self.w_sim + self.w_rank.T + self.w_label[torch.arange(TASKS), lab]
                            + self.b_rel)
        return self.bias + (rel * self.vote[torch.arange(TASKS), lab]).sum(1)


fp_all, y_all = make_molecules(1400)
fp_tr, y_tr, fp_te, y_te = fp_all[:1000], y_all[:1000], fp_all[1000:], y_all[1000:]
sim_tr, nb_tr = neighbour_features(fp_tr, fp_tr, y_tr, exclude_self=True)
sim_te, nb_te = neighbour_features(fp_te, fp_tr, y_tr, exclude_self=False)

model = IRV()
opt = torch.optim.Adam(model.parameters(), lr=LR)
for epoch in range(100):
    loss = F.binary_cross_entropy_with_logits(model(sim_tr, nb_tr), y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 25 == 0:
        print(f"epoch {epoch} train bce {loss.item():.4f}")

with torch.no_grad():
    logits = model(sim_te, nb_te)
    test_loss = F.binary_cross_entropy_with_logits(logits, y_te).item()
    acc = ((logits > 0).float() == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

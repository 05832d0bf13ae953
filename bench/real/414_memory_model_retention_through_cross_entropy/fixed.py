"""Spaced-repetition memory model (MLP predicts memory stability from review history, forgetting curve R = (1 + t / (9 S))^-1, full-batch Adam lr 1e-2 on 0/1 recall outcomes).

Fixed: the retention R is fitted with binary cross-entropy (`BCELoss` on R against the recall label)
instead of `CrossEntropyLoss` on (1 - R, R) treated as logits.
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


def make_reviews(n):
    reps = torch.randint(1, 12, (n,)).float()
    lapses = torch.binomial(reps, torch.full((n,), 0.15))
    grade = torch.randint(1, 5, (n,)).float()
    difficulty = torch.rand(n) * 9 + 1
    prev_ivl = torch.exp(torch.randn(n) + 0.3 * reps)
    true_s = torch.exp(0.25 * reps - 0.5 * lapses + 0.3 * (grade - 2.5) - 0.15 * difficulty + 0.5 * torch.log(prev_ivl) + 0.8)
    t = prev_ivl * torch.exp(torch.randn(n) * 0.8 + 0.5)
    p_recall = (1 + t / (9 * true_s)) ** -1
    y = torch.bernoulli(p_recall)
    x = torch.stack([reps / 10, lapses / 3, (grade - 2.5) / 1.2, (difficulty - 5.5) / 2.6, torch.log(prev_ivl) / 3], 1)
    return x, t, y


def retention(log_s, t):
    return (1 + t / (9 * log_s.exp())) ** -1


x_tr, t_tr, y_tr = make_reviews(5000)
x_te, t_te, y_te = make_reviews(2000)
model = nn.Sequential(nn.Linear(5, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.BCELoss()

for step in range(300):
    r = retention(model(x_tr).squeeze(1), t_tr)
    loss = criterion(r.clamp(1e-6, 1 - 1e-6), y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    r = retention(model(x_te).squeeze(1), t_te).clamp(1e-6, 1 - 1e-6)
    test_logloss = F.binary_cross_entropy(r, y_te).item()
    acc = ((r > 0.5).float() == y_te).float().mean().item()
print(f"final_loss={test_logloss:.6g} acc={acc:.4f}")

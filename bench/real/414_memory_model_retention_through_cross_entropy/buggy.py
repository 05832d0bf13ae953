"""Spaced-repetition memory model in the style of FSRS: for every review of a flashcard, an MLP reads the card's review history (number of earlier reviews and lapses, last grade, card difficulty, log of the previous interval) and predicts the memory stability S; the probability of recalling the card after an elapsed interval t is the forgetting curve R = (1 + t / (9 S))^-1. The model is fitted full-batch with Adam lr 1e-2 to 0/1 recall outcomes. The loss is `CrossEntropyLoss` on the pair (1 - R, R), which treats the two probabilities as unnormalized logits and applies a softmax on top: the implied recall probability is sigmoid(2R - 1), which can never exceed 0.73, so the fit keeps pushing R for recalled cards towards 1 (stability to infinity) and the predicted retention stops meaning anything -- the real log-loss of R on held-out reviews is far worse than a calibrated fit.

Source: https://github.com/open-spaced-repetition/fsrs-rs/issues/17 ([TODO] fix: BCELoss)
Report: "The current loss function is CrossEntropyLoss, which has already included a softmax layer inside.
Its input is expected to contain the unnormalized logits for each class. However, FSRS model's output is
the stability, which is used to calculate the retention at certain `delta_t`. The retention is a form of
probability. The softmax layer inside the CrossEntropyLoss will process the retention in an unexpected
way. So the weights couldn't be optimized as expected." Reproduced with 5,000 synthetic reviews whose true
stability depends on the history features. The printed loss is the binary log-loss of R on 2,000 held-out
reviews, `acc` the held-out accuracy of R > 0.5.

expect: loss-mismatch
symptom: final-loss-ratio 1.2
batch: 25
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
criterion = nn.CrossEntropyLoss()

for step in range(300):
    r = retention(model(x_tr).squeeze(1), t_tr)
    loss = criterion(torch.stack([1 - r, r], 1), y_tr.long())
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

"""Deep knowledge tracing model (DKT): a GRU (hidden 128) reads a student's interaction history -- one-hot (skill, correct) pairs over 25 skills -- and predicts, after every step, the probability that the student answers the next question on each skill correctly; binary cross-entropy on the skill actually asked next, Adam lr 5e-3, full-batch training on the 160 students of a small course, 120 epochs. The dataset is small for a 128-unit recurrent model and nothing watches the validation curve: after the first forty or so epochs the network stops learning how students progress and starts memorising the particular answer sequences of the training students -- training loss keeps falling while the loss (and AUC) on new students climbs back up.

Source: https://github.com/hcnoh/knowledge-tracing-collection-pytorch/issues/5 (About overfitting during model training)
Report: "I found that most of the models auc converged to the maximum value in the first 20% epoch during the
training process, and the auc began to decline, but the train loss decreased all the time. Does this mean
that overfitting occurred in the model training process?" -- maintainer: "Yes. you are right. if the
training loss decreases but the validation loss or test loss increases, the model has gotten overfitting
for the given dataset." Reproduced with synthetic students (an ability, per-skill difficulties, and
learning from practice; 30 answers each). The printed loss is the next-answer BCE on 300 held-out
students, `acc` the held-out next-answer accuracy.

expect: overfitting
symptom: final-loss-ratio 1.2
batch: 23
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

SKILLS, STEPS, EPOCHS = 25, 30, 120
difficulty = torch.randn(SKILLS)


def students(n):
    ability = torch.randn(n, 1)
    skills = torch.randint(0, SKILLS, (n, STEPS))
    practice = torch.zeros(n, SKILLS)
    correct = torch.zeros(n, STEPS)
    for t in range(STEPS):
        s = skills[:, t]
        logit = 1.5 * ability[:, 0] - difficulty[s] + 0.5 * practice[torch.arange(n), s]
        correct[:, t] = (torch.rand(n) < torch.sigmoid(logit)).float()
        practice[torch.arange(n), s] += 1
    x = F.one_hot(skills + SKILLS * correct.long(), 2 * SKILLS).float()
    return x, skills, correct


class DKT(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(2 * SKILLS, 128, batch_first=True)
        self.out = nn.Linear(128, SKILLS)

    def forward(self, x):
        return self.out(self.gru(x)[0])


def next_answer_loss(model, x, skills, correct):
    logits = model(x[:, :-1]).gather(2, skills[:, 1:].unsqueeze(2)).squeeze(2)
    return F.binary_cross_entropy_with_logits(logits, correct[:, 1:]), logits


x_tr, s_tr, c_tr = students(160)
x_te, s_te, c_te = students(300)
model = DKT()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)

for epoch in range(EPOCHS):
    loss, _ = next_answer_loss(model, x_tr, s_tr, c_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        with torch.no_grad():
            val, _ = next_answer_loss(model, x_te, s_te, c_te)
        print(f"epoch {epoch}: train {loss.item():.4f} val {val.item():.4f}")

with torch.no_grad():
    val, logits = next_answer_loss(model, x_te, s_te, c_te)
    acc = ((logits > 0).float() == c_te[:, 1:]).float().mean().item()
print(f"final_loss={val.item():.6g} acc={acc:.4f}")

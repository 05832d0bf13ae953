"""Student-response predictor for an adaptive-practice app: learned student and exercise embeddings pass through a deep prediction network (32 -> 64 x5 -> 1) trained with BCE.

Fixed: the hidden layers use ReLU instead of sigmoid (the output stays a logit for BCE), so the
backward signal is no longer shrunk by up to 4x at every hidden layer.
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

STUDENTS, EXERCISES, SKILLS = 500, 120, 4
ability = torch.randn(STUDENTS)
mastery = torch.randn(STUDENTS, SKILLS)
difficulty = torch.randn(EXERCISES)
skill_mix = torch.softmax(2 * torch.randn(EXERCISES, SKILLS), 1)
n = 30000
s_idx, e_idx = torch.randint(0, STUDENTS, (n,)), torch.randint(0, EXERCISES, (n,))
logit = 1.5 * (ability[s_idx] - difficulty[e_idx] + (mastery[s_idx] * skill_mix[e_idx]).sum(1))
correct = (torch.rand(n) < torch.sigmoid(logit)).float()
train, test = slice(0, 24000), slice(24000, n)


class PredNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.student = nn.Embedding(STUDENTS, 16)
        self.exercise = nn.Embedding(EXERCISES, 16)
        self.layers = nn.ModuleList([nn.Linear(32, 64)] + [nn.Linear(64, 64) for _ in range(4)])
        self.out = nn.Linear(64, 1)

    def forward(self, s, e):
        x = torch.cat([self.student(s), self.exercise(e)], 1)
        for layer in self.layers:
            x = torch.relu(layer(x))
        return self.out(x).squeeze(1)


model = PredNet()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(6):
    order = torch.randperm(24000)
    for st in range(0, 24000, 128):
        idx = order[st:st + 128]
        loss = F.binary_cross_entropy_with_logits(model(s_idx[idx], e_idx[idx]), correct[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(s_idx[test], e_idx[test])
        test_loss = F.binary_cross_entropy_with_logits(logits, correct[test]).item()
        acc = ((logits > 0).float() == correct[test]).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

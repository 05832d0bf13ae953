"""Bag-of-words review sentiment MLP -- fixed as in the pull request: the network returns the raw scores
of its last layer (no softmax), so the logit-based cross-entropy applies the only softmax (nothing else
changed).
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

VOCAB, C = 300, 3
background = torch.softmax(torch.randn(VOCAB), 0)
cues = torch.zeros(C, VOCAB)
for c in range(C):
    cues[c, torch.randperm(VOCAB)[:15]] = 1.0


def reviews(n):
    y = torch.randint(C, (n,))
    probs = 0.88 * background + 0.12 * cues[y] / cues[y].sum(1, keepdim=True)
    counts = torch.stack([torch.bincount(torch.multinomial(p, 40, replacement=True), minlength=VOCAB) for p in probs])
    return torch.log1p(counts.float()), y


X_train, Y_train = reviews(6000)
X_val, Y_val = reviews(1500)


class SentimentNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(VOCAB, 64)
        self.out = nn.Linear(64, C)

    def forward(self, x):
        return self.out(F.relu(self.hidden(x)))


model = SentimentNet()
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for step in range(100):
    loss = F.cross_entropy(model(X_train), Y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 19:
        with torch.no_grad():
            net = model(X_val)
            val_loss = F.cross_entropy(net, Y_val).item()
            val_acc = (net.argmax(1) == Y_val).float().mean().item()
        print(f"step {step} train {loss.item():.4f} val {val_loss:.4f} acc {val_acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")

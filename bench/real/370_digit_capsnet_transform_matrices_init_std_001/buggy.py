"""Small capsule network for 8x8 digit images: a dense layer produces 32 primary capsules of 8 dimensions (squashed), learned 8->16 transformation matrices map every primary capsule to a prediction for each of 10 digit capsules, three iterations of routing-by-agreement combine them, and the margin loss is applied to the digit-capsule lengths; Adam lr 1e-3, batches of 64, 90 steps. The transformation matrices are initialised with a standard deviation of 0.01. The predicted vectors are then so short that the squash non-linearity (|s|^2 / (1 + |s|^2) * s / |s|) acts on the almost-flat part of its curve: digit-capsule lengths start near zero, the margin-loss gradient reaching the matrices is scaled down by |s|^2, and the network sits on a plateau for most of the run before anything visible happens.

Source: https://github.com/ageron/handson-ml/pull/176 (made initial weights higher-variance)
Report: "It looks like your initialization for transformation matrices between primary capsules and digit
capsules is very unfortunate. It typically takes ~50 batches (I use batch size 16) to start changing losses
in visible range. This is a typical sign of bad initialization ... When I change stddev of initial weights
from 0.01 to 0.1, models starts visible learning right away" -- merged. Reproduced with 4,000 synthetic 8x8
digits (ten binary prototypes with pixel noise) and the network above; the step budget is short, so the
delayed start shows in the end result. The printed loss is the mean margin loss of the last 20 steps, `acc`
the accuracy on 1,000 held-out digits.

expect: bad-init
symptom: final-loss-ratio 1.5
batch: 22
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

PRIMARY, P_DIM, DIGITS, D_DIM = 32, 8, 10, 16
INIT_SIGMA = 0.01
prototypes = (torch.rand(DIGITS, 64) < 0.4).float()


def make_digits(n):
    y = torch.randint(0, DIGITS, (n,))
    return (prototypes[y] + 0.4 * torch.randn(n, 64)).clamp(0, 1), y


def squash(s, dim=-1):
    sq = (s ** 2).sum(dim, keepdim=True)
    return sq / (1 + sq) * s / torch.sqrt(sq + 1e-9)


class CapsNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.primary = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, PRIMARY * P_DIM))
        self.W = nn.Parameter(torch.randn(PRIMARY, DIGITS, D_DIM, P_DIM) * INIT_SIGMA)

    def forward(self, x):
        u = squash(self.primary(x).view(-1, PRIMARY, P_DIM))
        u_hat = torch.einsum("ijdp,bip->bijd", self.W, u)
        logits = torch.zeros(x.shape[0], PRIMARY, DIGITS)
        for it in range(3):
            c = logits.softmax(dim=2)
            v = squash((c[..., None] * u_hat).sum(1))
            if it < 2:
                logits = logits + (u_hat * v[:, None]).sum(-1)
        return v.norm(dim=-1)


def margin_loss(lengths, y):
    t = torch.eye(DIGITS)[y]
    loss = t * (0.9 - lengths).clamp(min=0) ** 2 + 0.5 * (1 - t) * (lengths - 0.1).clamp(min=0) ** 2
    return loss.sum(1).mean()


X, y = make_digits(4000)
X_test, y_test = make_digits(1000)
model = CapsNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
recent = []
for step in range(90):
    idx = torch.randint(0, len(X), (64,))
    loss = margin_loss(model(X[idx]), y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    recent = (recent + [loss.item()])[-20:]
    if step % 15 == 14:
        print(f"step {step + 1} margin loss {sum(recent) / len(recent):.4f}")

with torch.no_grad():
    acc = (model(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={sum(recent) / len(recent):.6g} acc={acc:.4f}")

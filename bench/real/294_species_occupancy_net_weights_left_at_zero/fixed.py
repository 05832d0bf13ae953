"""mistnet-style species-distribution network -- fixed as the report says: the weight matrices are
initialised with small random values (normal, scaled by 1/sqrt(fan-in)) instead of being left at
zero, so the hidden units differ and gradients reach both layers (nothing else changed).
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_ENV, N_HID, N_SPECIES = 12, 32, 20
niche_centre = torch.randn(N_SPECIES, 4)
niche_width = 0.6 + torch.rand(N_SPECIES, 1)


def sites(n):
    env = torch.randn(n, N_ENV)
    dist = ((env[:, None, :4] - niche_centre[None]) ** 2).sum(-1) / niche_width.T
    p = torch.sigmoid(3.0 - 2.0 * dist)
    return env, (torch.rand(n, N_SPECIES) < p).float()


x_tr, y_tr = sites(3000)
x_te, y_te = sites(1000)


def new_weights(rows, cols):
    return (torch.randn(rows, cols) / rows ** 0.5).requires_grad_()


w1, b1 = new_weights(N_ENV, N_HID), torch.zeros(N_HID, requires_grad=True)
w2, b2 = new_weights(N_HID, N_SPECIES), torch.zeros(N_SPECIES, requires_grad=True)
params = [w1, b1, w2, b2]


def forward(env):
    return torch.tanh(env @ w1 + b1) @ w2 + b2


for step in range(1500):
    loss = F.binary_cross_entropy_with_logits(forward(x_tr), y_tr)
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.5 * p.grad
            p.grad.zero_()
    if step % 300 == 299:
        with torch.no_grad():
            test_loss = F.binary_cross_entropy_with_logits(forward(x_te), y_te).item()
        print(f"step {step + 1} train {loss.item():.4f} test {test_loss:.4f}")

with torch.no_grad():
    acc = ((forward(x_te) > 0).float() == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

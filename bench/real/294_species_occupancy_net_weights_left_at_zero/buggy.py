"""Joint species-distribution network in the mistnet style: 12 environmental covariates of a survey
site -> one hidden layer of 32 tanh units -> presence probabilities of 20 bird species (BCE,
full-batch gradient descent), with its weight matrices allocated as zero tensors that the training
script never initialises. With every weight at zero the hidden units all output tanh(0) = 0, the
output weights therefore get no gradient, and the hidden weights get W2^T * delta = 0 as well:
only the output biases move, and the network can do no better than each species' prevalence.

Source: https://github.com/davharris/mistnet/issues/87 (Must initialize weights)
Report: "Otherwise there are no gradients for any networks with a hidden layer!" Reproduced with
3,000 synthetic survey sites (species presence from a nonlinear response to temperature,
precipitation, canopy cover and elevation), explicit weight tensors, gradient descent lr 0.5 for
1,500 full-batch steps. The printed loss is the mean BCE on 1,000 held-out sites, `acc` the held-out
presence/absence accuracy over all species.

expect: bad-init
symptom: final-loss-ratio 1.2
batch: 17
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
    return torch.zeros(rows, cols, requires_grad=True)


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

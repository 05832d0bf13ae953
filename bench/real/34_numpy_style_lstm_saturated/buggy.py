"""LSTM written from scratch with weights ~ N(0, 1): sigmoid and tanh gates saturate, no learning.

Source: https://github.com/mukul-rathi/deep-learning-tutorials/issues/2 (LSTM Sigmoid and Tanh gradients saturated)
Report: the from-scratch LSTM tutorial's sigmoid and tanh gradients are saturated; "look at initial
weights initialisation". Reproduced with a hand-written LSTM (gate pre-activations from
unit-variance weights over 40 inputs have a standard deviation of ~6) classifying sequences.

expect: saturated-activation
symptom: final-loss-ratio 1.5
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

n_x, n_a, T, n_y = 8, 32, 12, 2


def initialize_parameters():
    params = {}
    for g in ("f", "i", "c", "o"):
        params["W" + g] = torch.randn(n_a, n_a + n_x)
        params["b" + g] = torch.zeros(n_a, 1)
    params["Wy"] = torch.randn(n_y, n_a) * 0.1
    params["by"] = torch.zeros(n_y, 1)
    return params


def lstm_forward(x, p):
    m = x.shape[0]
    a, c = torch.zeros(n_a, m), torch.zeros(n_a, m)
    for t in range(T):
        concat = torch.cat([a, x[:, t].T], 0)
        ft = torch.sigmoid(p["Wf"] @ concat + p["bf"])
        it = torch.sigmoid(p["Wi"] @ concat + p["bi"])
        cct = torch.tanh(p["Wc"] @ concat + p["bc"])
        c = ft * c + it * cct
        ot = torch.sigmoid(p["Wo"] @ concat + p["bo"])
        a = ot * torch.tanh(c)
    return (p["Wy"] @ a + p["by"]).T


params = initialize_parameters()
for v in params.values():
    v.requires_grad_(True)
opt = torch.optim.SGD(params.values(), lr=0.1)
losses = []
for it in range(200):
    x = torch.randn(32, T, n_x)
    y = (x[:, -3:, 0].sum(1) > 0).long()  # is the first channel positive over the last 3 steps?
    loss = F.cross_entropy(lstm_forward(x, params), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")

"""Fixed version of 34_numpy_style_lstm_saturated/buggy.py (the source and the report are in its docstring).

Fix: Xavier-scaled gate weights (std 1/sqrt(fan_in)).
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
        params["W" + g] = torch.randn(n_a, n_a + n_x) / (n_a + n_x) ** 0.5
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

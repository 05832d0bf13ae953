"""Neural collaborative-filtering model for a small catalogue: user and item embeddings are concatenated and passed through a two-layer MLP whose single output is read as the predicted star rating, trained with MSE against ratings of 1, 2, 3 or 4 (Adam, DataLoader batches of 128). The output unit is squashed by tanh, whose values always lie between -1 and 1: every target is at or above the ceiling, so the optimizer pushes the output pre-activation far into the flat tail, the prediction sits at 1.0 for every (user, item) pair, its derivative is 0, and the model can neither rank items nor reach any rating above one star.

Source: http://ansaurus.com/question/3644795-neural-network-python (neural network - python)
Report: "You're attempting to train the network to give output values 1,2,3,4 as far as I understood. Yet, at the
output you use a sigmoid (math.tanh(..)) whose values are always between -1 and 1. So the output of your Neural
network is always between -1 and 1 and thus you always get a large error when trying to fit output values outside
that range ... You can remove the sigmoid at the output node". Reproduced with 150 users x 100 items, 16,000
observed ratings drawn from a 4-factor latent model and quantized to 1-4, 8-d embeddings, MLP 16-32-1 with a tanh
output, Adam lr 1e-2, 12 epochs. The printed loss is the held-out MSE; `acc` is the share of held-out ratings whose
rounded prediction is exact.

expect: saturated-activation
symptom: acc-below 0.4
batch: 26
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_USERS, N_ITEMS = 150, 100
U, V = torch.randn(N_USERS, 4), torch.randn(N_ITEMS, 4)
item_bias = 0.6 * torch.randn(N_ITEMS)


def ratings(n):
    u, i = torch.randint(0, N_USERS, (n,)), torch.randint(0, N_ITEMS, (n,))
    raw = 2.5 + 0.45 * (U[u] * V[i]).sum(1) + item_bias[i] + 0.25 * torch.randn(n)
    return u, i, raw.round().clamp(1, 4)


class RatingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(N_USERS, 8)
        self.items = nn.Embedding(N_ITEMS, 8)
        self.mlp = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1), nn.Tanh())

    def forward(self, u, i):
        return self.mlp(torch.cat([self.users(u), self.items(i)], 1)).squeeze(1)


u_tr, i_tr, r_tr = ratings(16000)
u_te, i_te, r_te = ratings(3000)
loader = DataLoader(TensorDataset(u_tr, i_tr, r_tr), batch_size=128, shuffle=True)
model = RatingNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.MSELoss()
for epoch in range(12):
    total = 0.0
    for u, i, r in loader:
        loss = loss_fn(model(u, i), r)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(r)
    with torch.no_grad():
        val = loss_fn(model(u_te, i_te), r_te).item()
    print(f"epoch {epoch} train mse {total / len(r_tr):.4f} val mse {val:.4f}")

with torch.no_grad():
    pred = model(u_te, i_te)
    exact = (pred.round().clamp(1, 4) == r_te).float().mean().item()
print(f"final_loss={val:.6g} acc={exact:.4f}")

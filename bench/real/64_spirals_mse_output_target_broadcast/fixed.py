"""Two-spirals classifier trained with a hand-written MSE between an (N, 1) output and (N,) targets.

Source: https://github.com/jax-ml/jax/issues/2697 (Simple Classification with MSE Loss)
Report: "I'm getting hangups in the loss when doing classification using MSE loss ... the loss
continues to get stuck at 0.25 regardless of the architecture of the network, which is making me
suspicious that there is an error somewhere. The same setup works fine for a single dimensional
regression task". The loss was `np.mean((preds - targets)**2)` with preds of shape (N, 1) from a
Dense(1) head and targets of shape (N,); a maintainer: "Turning on this rank-promotion
warning/error ... would've caught the error earlier." The subtraction broadcasts to an (N, N)
matrix, whose minimum is the constant prediction 0.5: every network settles at 0.25. Reproduced
in PyTorch (same broadcasting rules) with the same 4x100 ReLU MLP on the two-spirals data.

expect: loss-mismatch
symptom: acc-below 0.6
batch: 3
"""
import argparse
import math

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def twospirals(n_points, noise=0.5):
    n = torch.sqrt(torch.rand(n_points)) * 780 * (2 * math.pi) / 360
    d1x = -torch.cos(n) * n + torch.rand(n_points) * noise
    d1y = torch.sin(n) * n + torch.rand(n_points) * noise
    x = torch.cat([torch.stack([d1x, d1y], 1), torch.stack([-d1x, -d1y], 1)]) / 5.0
    y = torch.cat([torch.zeros(n_points), torch.ones(n_points)])
    return x, y


train_x, train_y = twospirals(500)
test_x, test_y = twospirals(200)

width = 100
model = nn.Sequential(nn.Linear(2, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                      nn.Linear(width, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                      nn.Linear(width, 1))


def loss_fn(preds, targets):
    return torch.mean((preds - targets) ** 2)


opt = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for i in range(300):
    perm = torch.randperm(len(train_x))[:250]
    preds = model(train_x[perm])
    loss = loss_fn(preds.squeeze(1), train_y[perm])
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    if i % 20 == 0:
        print(f"iter {i} loss {loss.item():.4f}")

with torch.no_grad():
    acc = ((model(test_x).squeeze(1) > 0.5).float() == test_y).float().mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")

"""Fixed version of 16_graph_instance_norm_zero_var/buggy.py (the source and the report are in its docstring).

Fix: (var + eps).sqrt().
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)


def random_graph_batch(n_graphs):
    sizes = torch.randint(1, 9, (n_graphs,))
    batch = torch.repeat_interleave(torch.arange(n_graphs), sizes)
    x = torch.randn(len(batch), 6)
    y = torch.zeros(n_graphs).index_add_(0, batch, x[:, 0]) / sizes
    return x, batch, (y > 0).long(), n_graphs


def scatter_mean(v, batch, n):
    cnt = torch.zeros(n).index_add_(0, batch, torch.ones(len(batch))).clamp(min=1)
    return torch.zeros(n, v.shape[1]).index_add_(0, batch, v) / cnt[:, None]


class InstanceNorm(nn.Module):
    def forward(self, x, batch, n):
        mean = scatter_mean(x, batch, n)
        out = x - mean[batch]
        var = scatter_mean(out * out, batch, n)
        return out / (var + 1e-5).sqrt()[batch]


class GNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(6, 32)
        self.norm = InstanceNorm()
        self.lin2 = nn.Linear(32, 2)

    def forward(self, x, batch, n):
        h = F.relu(self.norm(self.lin1(x), batch, n)) + self.lin1(x)
        return self.lin2(scatter_mean(h, batch, n))


model = GNN()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
losses = []
for step in range(150):
    x, batch, y, n = random_graph_batch(16)
    loss = F.cross_entropy(model(x, batch, n), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")

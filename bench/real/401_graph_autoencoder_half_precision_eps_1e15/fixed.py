"""Float16 graph auto-encoder -- fixed as in the pull request by choosing EPS for the precision the
model runs in: 1e-3 instead of 1e-15, a value float16 can represent, so the logarithms never see an exact
0; the model still runs in float16 and nothing else changed.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

EPS = 1e-3
DTYPE = torch.float16
N, K = 400, 20
comm = torch.arange(N) % K
p = torch.where(comm[:, None] == comm[None, :], 0.9, 0.002)
A = torch.triu((torch.rand(N, N) < p).float(), 1)
edges = A.nonzero()
perm = torch.randperm(len(edges))
n_test = len(edges) // 5
test_pos, train_pos = edges[perm[:n_test]], edges[perm[n_test:]]

A_train = torch.zeros(N, N)
A_train[train_pos[:, 0], train_pos[:, 1]] = 1
A_train = A_train + A_train.T + torch.eye(N)
d = A_train.sum(1).rsqrt()
A_hat = (d[:, None] * A_train * d[None, :]).to(DTYPE)
X = (torch.eye(K)[comm] + 0.5 * torch.randn(N, K)).repeat(1, 2).to(DTYPE)


def non_edges(n):
    u, v = torch.randint(0, N, (2, 3 * n))
    keep = (A[torch.minimum(u, v), torch.maximum(u, v)] == 0) & (u != v)
    return torch.stack([u[keep], v[keep]], 1)[:n]


test_neg = non_edges(n_test)


class GAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(40, 32)
        self.l2 = nn.Linear(32, 16)

    def forward(self, x):
        return A_hat @ self.l2(torch.relu(A_hat @ self.l1(x)))


def recon_loss(z, pos, neg):
    pos_p = torch.sigmoid((z[pos[:, 0]] * z[pos[:, 1]]).sum(1))
    neg_p = torch.sigmoid((z[neg[:, 0]] * z[neg[:, 1]]).sum(1))
    return -torch.log(pos_p + EPS).mean() - torch.log(1 - neg_p + EPS).mean()


model = GAE().to(DTYPE)
opt = torch.optim.SGD(model.parameters(), lr=0.3, momentum=0.9)
for step in range(200):
    loss = recon_loss(model(X), train_pos, non_edges(len(train_pos)))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    z = model(X)
    test_loss = recon_loss(z, test_pos, test_neg).float().item()
    pos_s = (z[test_pos[:, 0]] * z[test_pos[:, 1]]).sum(1)
    neg_s = (z[test_neg[:, 0]] * z[test_neg[:, 1]]).sum(1)
    acc = torch.cat([(pos_s > 0).float(), (neg_s <= 0).float()]).mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

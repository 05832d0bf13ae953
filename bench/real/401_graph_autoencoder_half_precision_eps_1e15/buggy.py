"""Graph auto-encoder for link prediction on a social graph of 20 tight communities (400 nodes): a two-layer GCN encoder (dense symmetric-normalized adjacency, 40 -> 32 -> 16) with an inner-product decoder, trained on 80% of the edges with the usual reconstruction loss -log(sigmoid(z_u.z_v) + EPS) on edges and -log(1 - sigmoid(z_u.z_v) + EPS) on as many random non-edges, full-batch SGD with momentum (lr 0.3) for 200 steps, the whole model run in float16 to halve memory. EPS = 1e-15 guards the logarithms, but 1e-15 is far below the smallest float16 number and becomes exactly 0: as the embeddings sharpen, sigmoid(z_u.z_v) of a confident pair rounds to exactly 1.0 (or 0.0) in float16 and the loss takes log(0) = -inf, so the loss turns Inf/NaN and the weights are destroyed.

Source: https://github.com/pyg-team/pytorch_geometric/pull/2106 (Make EPS adjustable to the precision (e.g., fp16))
Report: "This PR fixes a bug of `inf` or `nan` value when using `EPS = 1e-15` with half-precision models."
Reproduced with a synthetic stochastic-block-model graph (20 communities of 20 nodes, edge probability
0.9 inside and 0.002 across) with noisy community features. The printed loss is the reconstruction loss
on the 20% held-out edges and as many held-out non-edges, `acc` the fraction of those pairs classified
correctly (edge when sigmoid > 0.5).

expect: fp16-underflow
symptom: nonfinite
batch: 24
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

EPS = 1e-15
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

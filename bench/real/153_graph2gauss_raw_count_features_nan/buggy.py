"""Graph2Gauss node-embedding model (MLP encoder from node attributes to a diagonal Gaussian per node, KL-divergence energy, square-exponential ranking loss over 1-hop vs. far node pairs) fed raw attribute counts in the hundreds: the encoder's first activations are huge, the variances (elu + 1) collapse towards zero or explode, the KL energies overflow and the loss turns NaN within the first steps.

Source: https://github.com/abojchevski/graph2gauss/issues/8 (HELP!!!!)
Report: "I am training the node classification on my dataset. The shape of A is [14000,14000]. X is
[14000,240] ... BUT the loss keep nan during the training process. Have tried changed the
learning rate from 1 to 1e-8. Plz give some suggestions or ideas." -- then "Solved. Not normalize
to [0,1]." (the attribute matrix had not been scaled to [0, 1]). Reproduced with Graph2Gauss's
model in PyTorch (encoder 240 -> 256 -> mu and sigma heads of 32, sigma = elu(.) + 1 + 1e-14,
energy = KL(N_j || N_i), loss = E_pos^2 + exp(-E_neg) over sampled (node, 1-hop neighbour,
non-neighbour) triplets, Adam lr 1e-3, full passes over the node set) on a synthetic attributed
graph of 2,000 nodes in 8 communities whose 240 attributes are raw event counts (Poisson, rates up
to a few hundred per community-specific attribute). The printed loss is the ranking loss of the
last epoch, `acc` the link-prediction AUC (held-out edges vs. random pairs, lower energy = edge).

expect: data-unnormalized
symptom: nonfinite
batch: 8
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N, D_ATTR, K, L = 2000, 240, 8, 32
comm = torch.randint(0, K, (N,))
rates = torch.rand(K, D_ATTR) * 300 * (torch.rand(K, D_ATTR) < 0.2) + 2
X = torch.poisson(rates[comm])                                       # raw counts as extracted

# edges: mostly within a community
src = torch.randint(0, N, (12000,))
same = torch.rand(12000) < 0.85
dst = torch.where(same, torch.zeros_like(src), torch.randint(0, N, (12000,)))
for c in range(K):
    members = (comm == c).nonzero().squeeze(1)
    m = same & (comm[src] == c)
    dst[m] = members[torch.randint(0, len(members), (int(m.sum()),))]
keep = src != dst
edges = torch.stack([src[keep], dst[keep]], 1)
perm = torch.randperm(len(edges))
test_edges, train_edges = edges[perm[:1000]], edges[perm[1000:]]
A = torch.zeros(N, N, dtype=torch.bool)
A[train_edges[:, 0], train_edges[:, 1]] = True
A = A | A.T

features = X


class Graph2Gauss(nn.Module):
    def __init__(self, d_in, hidden=256, dim=L):
        super().__init__()
        self.hidden = nn.Linear(d_in, hidden)
        self.mu = nn.Linear(hidden, dim)
        self.sigma = nn.Linear(hidden, dim)

    def forward(self, x):
        h = F.relu(self.hidden(x))
        return self.mu(h), F.elu(self.sigma(h)) + 1 + 1e-14


def energy_kl(mu, sigma, i, j):
    """KL(N_j || N_i) for diagonal Gaussians."""
    s_i, s_j = sigma[i], sigma[j]
    trace = (s_j / s_i).sum(1)
    mu_diff = ((mu[i] - mu[j]) ** 2 / s_i).sum(1)
    logdet = torch.log(s_i).sum(1) - torch.log(s_j).sum(1)
    return 0.5 * (trace + mu_diff - L + logdet)


model = Graph2Gauss(D_ATTR)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(30):
    order = torch.randperm(len(train_edges))
    total, n = 0.0, 0
    for idx in order.split(1024):
        i, j = train_edges[idx, 0], train_edges[idx, 1]
        k = torch.randint(0, N, (len(idx),))
        k = torch.where(A[i, k], torch.randint(0, N, (len(idx),)), k)
        mu, sigma = model(features)
        e_pos, e_neg = energy_kl(mu, sigma, i, j), energy_kl(mu, sigma, i, k)
        loss = (e_pos ** 2 + torch.exp(-e_neg)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        n += 1
    if epoch % 10 == 0:
        print(f"epoch {epoch} loss {total / n:.4f}")

with torch.no_grad():
    mu, sigma = model(features)
    e_edge = energy_kl(mu, sigma, test_edges[:, 0], test_edges[:, 1])
    r = torch.randint(0, N, (len(test_edges), 2))
    e_rand = energy_kl(mu, sigma, r[:, 0], r[:, 1])
    auc = (e_edge[:, None] < e_rand[None, :]).float().mean().item()
print(f"final_loss={total / n:.6g} acc={auc:.4f}")

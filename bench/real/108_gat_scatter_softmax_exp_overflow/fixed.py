"""Graph attention network -- fixed as suggested and merged: the edge softmax subtracts each
node's maximum score (scatter max over its incoming edges) before exponentiating (nothing else changed).

Source: https://github.com/pyg-team/pytorch_geometric/issues/53 (scatter softmax output 'nan')
Report: "On the use of GatConv, it produce 'nan' frequently, after checkout the code, found this
line doing exp straightly cause overflow, should it be better to sub the max beforehand"
(row_max = scatter_max(src, index); src = src - row_max[index]; out = src.exp()); the
maintainer: "Thanks a lot! Fixed in master!". Reproduced with a GATConv written like the early
PyG layer (linear projection, per-edge score leaky_relu(a . [W x_i || W x_j]), the library's
softmax(src, index) = src.exp() / scatter_add(src.exp(), index)[index], aggregation with
index_add_), two layers with 8 heads, Adam, on a synthetic citation graph (600 papers, their
sources and 600 other references) with word-count features plus the raw publication year and a
"well-known paper" flag, where a paper's class is that of its one well-known source among its
references; the year column puts the raw scores in the hundreds (the softmax itself is
unaffected by that shift, exp is not); `acc` is the test accuracy.

expect: unstable-op
symptom: nonfinite
batch: 6
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

Q, F_IN, C, DEG = 600, 200, 6, 6
topic_words = torch.rand(C, F_IN) < 0.08


def bag(cls, n, p):                                       # word-count rows for classes `cls`
    counts = torch.poisson(torch.full((n, F_IN), 4.0))
    return counts * (topic_words[cls] & (torch.rand(n, F_IN) < p)) + (torch.rand(n, F_IN) < 0.01).float()


y_src = torch.randint(0, C, (Q,))
# last two columns: publication year, and whether the paper is a well-known (highly cited) one
def meta(n, cited):
    return torch.stack([torch.randint(1990, 2021, (n,)).float(), torch.full((n,), float(cited))], 1)


x_query = torch.cat([bag(torch.randint(0, C, (Q,)), Q, 0.2), meta(Q, 0)], 1)
x_source = torch.cat([bag(y_src, Q, 0.8), meta(Q, 1)], 1)
x_noise = torch.cat([bag(torch.randint(0, C, (Q,)), Q, 0.8), meta(Q, 0)], 1)
x_all = torch.cat([x_query, x_source, x_noise])
y = y_src                                                  # a paper's class is its source's class
n_all = x_all.size(0)
# edges j -> i into each paper: its source, DEG other references, itself; self-loops elsewhere
row = torch.cat([torch.arange(Q), torch.arange(Q).repeat_interleave(DEG), torch.arange(n_all)])
col = torch.cat([Q + torch.arange(Q), 2 * Q + torch.randint(0, Q, (Q * DEG,)), torch.arange(n_all)])
edge_index = torch.stack([row, col])                       # (target i, source j)
perm = torch.randperm(Q)
train_idx, test_idx = perm[:300], perm[300:]


def softmax(src, index, num_nodes):
    row_max = torch.zeros(num_nodes, src.size(1)).index_reduce_(0, index, src, "amax", include_self=False)
    src = src - row_max[index].detach()
    out = src.exp()
    return out / torch.zeros(num_nodes, out.size(1)).index_add_(0, index, out)[index]


class GATConv(nn.Module):
    def __init__(self, in_channels, out_channels, heads=1, concat=True):
        super().__init__()
        self.heads, self.out_channels, self.concat = heads, out_channels, concat
        self.weight = nn.Parameter(torch.empty(in_channels, heads * out_channels))
        self.att = nn.Parameter(torch.empty(1, heads, 2 * out_channels))
        self.bias = nn.Parameter(torch.zeros(heads * out_channels if concat else out_channels))
        nn.init.xavier_uniform_(self.weight)
        nn.init.xavier_uniform_(self.att)

    def forward(self, x, edge_index):
        i, j = edge_index
        h = (x @ self.weight).view(-1, self.heads, self.out_channels)
        alpha = (torch.cat([h[i], h[j]], -1) * self.att).sum(-1)
        alpha = F.leaky_relu(alpha, 0.2)
        self.max_score = alpha.max().item()
        alpha = softmax(alpha, i, x.size(0))
        out = torch.zeros(x.size(0), self.heads, self.out_channels).index_add_(0, i, h[j] * alpha.unsqueeze(-1))
        out = out.reshape(x.size(0), -1) if self.concat else out.mean(1)
        return out + self.bias


class GAT(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GATConv(F_IN + 2, 8, heads=8)
        self.conv2 = GATConv(64, C, heads=1, concat=False)

    def forward(self, x, edge_index):
        x = F.elu(self.conv1(x, edge_index))
        return self.conv2(x, edge_index)


model = GAT()
optimizer = torch.optim.Adam(model.parameters(), lr=0.005, weight_decay=5e-4)
for epoch in range(400):
    model.train()
    optimizer.zero_grad()
    out = model(x_all, edge_index)[:Q]
    loss = F.cross_entropy(out[train_idx], y[train_idx])
    loss.backward()
    optimizer.step()
    if epoch % 25 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f} max score {model.conv1.max_score:.1f} {model.conv2.max_score:.1f}")

model.eval()
with torch.no_grad():
    out = model(x_all, edge_index)[:Q]
    acc = (out[test_idx].argmax(1) == y[test_idx]).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")

"""Node-classification graph network (eight message-passing layers that add up neighbour states, h <- ReLU(W (h + sum of neighbours)), no normalisation layer, cross-entropy, SGD with momentum, full-batch) trained without gradient clipping: every layer multiplies the signal by roughly the node degree, so the backward pass through the stack yields gradients many orders of magnitude too large; the first SGD steps throw the weights far out, activations overflow and the loss becomes NaN.

Source: https://github.com/cvignac/SMP/issues/3 (Nan loss)
Report: "While trying the model on my own node classification task I keep getting a nan loss,
preventing the model from learning." -- the maintainer: "NaNs usually arise when the activations
explode ... There are too many layers and no normalization after each layer ... reduce the value of
gradient clipping, which is used to avoid exploding parameters ... I think gradient clipping solved
the issue." Reproduced with a synthetic graph of 1,500 nodes in 5 communities (about 6 neighbours
per node, 80% inside the community; node features are noisy community indicators), eight
sum-aggregation layers of width 32 with ReLU and a linear read-out, SGD lr 0.01 momentum 0.9,
120 full-batch steps on 60% of the nodes. The printed loss is the training cross-entropy at the
last step, `acc` the accuracy on the other 40%.

expect: exploding-gradient
symptom: nonfinite
batch: 11
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

N, C, DEG, LAYERS = 1500, 5, 3, 8
CLIP = None


def make_graph():
    comm = torch.randint(0, C, (N,))
    src = torch.arange(N).repeat_interleave(DEG)
    same = torch.rand(N * DEG) < 0.8
    dst = torch.randint(0, N, (N * DEG,))
    members = [torch.nonzero(comm == c).squeeze(1) for c in range(C)]
    for c in range(C):
        pick = same & (comm[src] == c)
        dst[pick] = members[c][torch.randint(0, len(members[c]), (int(pick.sum()),))]
    A = torch.zeros(N, N)
    A[src, dst] = 1.0
    A = ((A + A.t()) > 0).float()
    A.fill_diagonal_(0)
    x = F.one_hot(comm, C).float() * 0.6 + torch.randn(N, C)
    return A, torch.cat([x, torch.randn(N, 11)], 1), comm


class SumGNN(nn.Module):
    def __init__(self, d_in, d):
        super().__init__()
        self.inp = nn.Linear(d_in, d)
        self.layers = nn.ModuleList(nn.Linear(d, d) for _ in range(LAYERS))
        self.out = nn.Linear(d, C)

    def forward(self, A, x):
        h = F.relu(self.inp(x))
        for lin in self.layers:
            h = F.relu(lin(h + A @ h))
        return self.out(h)


A, X, y = make_graph()
perm = torch.randperm(N)
train_idx, test_idx = perm[:900], perm[900:]
model = SumGNN(X.shape[1], 32)
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

for step in range(120):
    loss = F.cross_entropy(model(A, X)[train_idx], y[train_idx])
    opt.zero_grad()
    loss.backward()
    if CLIP is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
    opt.step()
    if step % 20 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    acc = (model(A, X)[test_idx].argmax(1) == y[test_idx]).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")

"""Two-layer GraphSAGE (mean aggregator written by hand: neighbour sum divided by node degree) on a citation-style graph that contains isolated papers: 0/0 for every zero-degree node turns the first forward pass into NaN and the loss never recovers.

Source: https://github.com/MrLeeeee/GCN-GAT-and-Graphsage/issues/3 (zero division in Graphsage)
Report: "h1 = h1 / degree in Graphsage.py. The degree of some nodes might be zero leading to the
loss to become NAN. It's recommended to add a samll number to denominator, e.g., 1e-5."
Reproduced with that repo's GraphSAGE layout (dense adjacency, mean aggregation as
adj @ h / degree, concatenation of self and neighbour features, ReLU, dropout, full-batch Adam on
the labelled training nodes) on a synthetic 6-topic citation graph of 1,200 papers with sparse
bag-of-words features; about 4 % of the papers cite nothing and are cited by nothing (as in
Citeseer). The printed loss is the training cross-entropy of the last epoch, `acc` the test-node
accuracy.

expect: unstable-op
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

N, C, VOCAB = 1200, 6, 500
labels = torch.randint(0, C, (N,))
# topic-dependent word distribution, ~20 words per paper
topic_words = torch.rand(C, VOCAB).pow(6)
topic_words = topic_words / topic_words.sum(1, keepdim=True)
probs = 0.7 * topic_words[labels] + 0.3 / VOCAB
words = torch.multinomial(probs, 20, replacement=True)
x = torch.zeros(N, VOCAB).scatter_(1, words, 1.0)
x = x / x.sum(1, keepdim=True)

# citations: mostly within a topic (homophily), a few random ones
adj = torch.zeros(N, N)
isolated = torch.rand(N) < 0.04
for i in range(N):
    if isolated[i]:
        continue
    k = int(torch.randint(1, 6, (1,)))
    same = (labels == labels[i]) & ~isolated
    cand = same.nonzero().squeeze(1) if torch.rand(1) < 0.8 else (~isolated).nonzero().squeeze(1)
    j = cand[torch.randint(0, len(cand), (k,))]
    adj[i, j] = 1.0
adj = ((adj + adj.T) > 0).float()
adj.fill_diagonal_(0)
degree = adj.sum(1, keepdim=True)

perm = torch.randperm(N)
train_idx, val_idx, test_idx = perm[:600], perm[600:800], perm[800:]


class SageLayer(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(2 * d_in, d_out)

    def forward(self, h, adj, degree):
        h1 = adj @ h
        h1 = h1 / degree                      # mean over neighbours
        return self.lin(torch.cat([h, h1], dim=1))


class GraphSage(nn.Module):
    def __init__(self, d_in, d_hid, n_cls):
        super().__init__()
        self.sage1 = SageLayer(d_in, d_hid)
        self.sage2 = SageLayer(d_hid, n_cls)

    def forward(self, x, adj, degree):
        h = F.relu(self.sage1(x, adj, degree))
        h = F.dropout(h, 0.5, self.training)
        return self.sage2(h, adj, degree)


model = GraphSage(VOCAB, 64, C)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
for epoch in range(150):
    model.train()
    optimizer.zero_grad()
    out = model(x, adj, degree)
    loss = F.cross_entropy(out[train_idx], labels[train_idx])
    loss.backward()
    optimizer.step()
    if epoch % 25 == 0:
        print(f"epoch {epoch} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    pred = model(x, adj, degree).argmax(1)
    acc = (pred[test_idx] == labels[test_idx]).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")

"""Graph attention / GCN node classifier on a Citeseer-like graph: row-normalising bag-of-words
features divides the all-zero rows by zero.

Source: https://github.com/danielegrattarola/keras-gat/issues/14 (citeseer dataset loss is nan)
Report: "There is a problem that when i use citeseer dataset, the training loss is nan." The
reporter's fix: "I think after function load_data(), maybe should add: X[np.isnan(X)] = 0. then
it works!"; the maintainer: "This is fixed now". Citeseer has nodes whose feature row is empty
(documents with no word of the vocabulary, and the isolated nodes the content file lacks), and
the loader's row normalisation X / X.sum(1) turns them into 0/0 = NaN, which every graph
convolution then spreads to the neighbours. Reproduced with a synthetic citation graph (600
nodes, 6 topics, 500-word binary bag-of-words, ~2 % empty rows) and a 2-layer GAT in plain torch,
trained full-batch on 120 labelled nodes as in the Planetoid split.

expect: data-nonfinite
symptom: nonfinite
batch: 3
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def load_data(seed):
    rng = np.random.RandomState(seed)
    n, v, c = 600, 500, 6
    y = rng.randint(0, c, n)
    topic_words = rng.rand(c, v) < 0.04
    X = ((rng.rand(n, v) < 0.01) | (topic_words[y] & (rng.rand(n, v) < 0.35))).astype(np.float32)
    X[rng.rand(n) < 0.02] = 0.0  # documents with no vocabulary word / isolated nodes
    # homophilous citation edges
    A = np.zeros((n, n), dtype=np.float32)
    for i in range(n):
        same = np.where(y == y[i])[0]
        nb = np.concatenate([rng.choice(same, 3), rng.randint(0, n, 1)])
        A[i, nb] = A[nb, i] = 1.0
    np.fill_diagonal(A, 1.0)
    # row-normalise features, as in the Planetoid preprocessing
    X = X / X.sum(1, keepdims=True)
    X[np.isnan(X)] = 0.0
    idx = rng.permutation(n)
    return X, A, y, idx[:120], idx[120:370], idx[370:]


class GATLayer(nn.Module):
    def __init__(self, fin, fout, heads, concat=True, dropout=0.6):
        super().__init__()
        self.W = nn.Linear(fin, fout * heads, bias=False)
        self.a_src = nn.Parameter(torch.empty(heads, fout))
        self.a_dst = nn.Parameter(torch.empty(heads, fout))
        nn.init.xavier_uniform_(self.a_src)
        nn.init.xavier_uniform_(self.a_dst)
        self.heads, self.fout, self.concat, self.dropout = heads, fout, concat, dropout

    def forward(self, x, adj):
        h = self.W(x).view(-1, self.heads, self.fout)             # N,H,F
        e = (h * self.a_src).sum(-1).unsqueeze(1) + (h * self.a_dst).sum(-1).unsqueeze(0)  # N,N,H
        e = F.leaky_relu(e, 0.2).masked_fill(adj.unsqueeze(-1) == 0, float("-inf"))
        att = F.dropout(torch.softmax(e, dim=1), self.dropout, self.training)
        out = torch.einsum("ijh,jhf->ihf", att, h)
        return out.reshape(x.shape[0], -1) if self.concat else out.mean(1)


class GAT(nn.Module):
    def __init__(self, fin, ncls):
        super().__init__()
        self.l1 = GATLayer(fin, 8, 8)
        self.l2 = GATLayer(64, ncls, 1, concat=False)

    def forward(self, x, adj):
        x = F.dropout(x, 0.6, self.training)
        x = F.elu(self.l1(x, adj))
        x = F.dropout(x, 0.6, self.training)
        return self.l2(x, adj)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    X, A, y, tr, va, te = load_data(args.seed)
    X, A, y = torch.tensor(X), torch.tensor(A), torch.tensor(y)
    model = GAT(X.shape[1], 6)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3, weight_decay=5e-4)
    losses = []
    for epoch in range(100):
        model.train()
        out = model(X, A)
        loss = F.cross_entropy(out[tr], y[tr])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if epoch % 10 == 0:
            model.eval()
            with torch.no_grad():
                out = model(X, A)
                vloss = F.cross_entropy(out[va], y[va]).item()
                vacc = (out[va].argmax(1) == y[va]).float().mean().item()
            print(f"epoch {epoch:3d} loss {loss.item():.4f} val_loss {vloss:.4f} val_acc {vacc:.3f}")
    model.eval()
    with torch.no_grad():
        acc = (model(X, A)[te].argmax(1) == y[te]).float().mean().item()
    print(f"test acc {acc:.3f}")
    print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")


if __name__ == "__main__":
    main()

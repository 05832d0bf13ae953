"""Graph attention network on a citation graph (dense adjacency)."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class GraphAttentionLayer(nn.Module):
    def __init__(self, in_features, out_features, dropout, alpha, concat=True):
        super().__init__()
        self.dropout = dropout
        self.concat = concat
        self.W = nn.Parameter(torch.empty(in_features, out_features))
        self.a = nn.Parameter(torch.empty(2 * out_features, 1))
        nn.init.xavier_uniform_(self.W, gain=1.414)
        nn.init.xavier_uniform_(self.a, gain=1.414)
        self.leakyrelu = nn.LeakyReLU(alpha)

    def forward(self, h, adj):
        Wh = h @ self.W
        n = Wh.size(0)
        pairs = torch.cat([Wh.repeat_interleave(n, dim=0), Wh.repeat(n, 1)], dim=1)
        e = self.leakyrelu((pairs @ self.a).view(n, n))
        attention = e.masked_fill(adj <= 0, -9e15)
        attention = F.softmax(attention, dim=1)
        attention = F.dropout(attention, self.dropout, training=self.training)
        h_prime = attention @ Wh
        return F.elu(h_prime) if self.concat else h_prime


class GAT(nn.Module):
    def __init__(self, nfeat, nhid, nclass, dropout, alpha, nheads):
        super().__init__()
        self.dropout = dropout
        self.heads = nn.ModuleList(
            [GraphAttentionLayer(nfeat, nhid, dropout, alpha) for _ in range(nheads)]
        )
        self.out_att = GraphAttentionLayer(nhid * nheads, nclass, dropout, alpha, concat=False)

    def forward(self, x, adj):
        x = F.dropout(x, self.dropout, training=self.training)
        x = torch.cat([att(x, adj) for att in self.heads], dim=1)
        x = F.dropout(x, self.dropout, training=self.training)
        x = F.elu(self.out_att(x, adj))
        return F.log_softmax(x)  # expect: softmax-without-dim


def accuracy(output, labels):
    preds = output.argmax(dim=1)
    return (preds == labels).float().mean().item()


def run(features, adj, labels, idx_train, idx_val, epochs=200):
    model = GAT(features.size(1), 8, int(labels.max()) + 1, dropout=0.6, alpha=0.2, nheads=8)
    optimizer = optim.Adam(model.parameters(), lr=0.005, weight_decay=5e-4)
    for epoch in range(epochs):
        t = time.time()
        model.train()
        optimizer.zero_grad()
        output = model(features, adj)
        loss_train = F.nll_loss(output[idx_train], labels[idx_train])
        loss_train.backward()
        optimizer.step()

        model.eval()
        with torch.no_grad():
            output = model(features, adj)
            loss_val = F.nll_loss(output[idx_val], labels[idx_val])
            acc_val = accuracy(output[idx_val], labels[idx_val])
        print(f"epoch {epoch:04d} train {loss_train.item():.4f} val {loss_val.item():.4f} "
              f"acc {acc_val:.4f} time {time.time() - t:.3f}s")
    return model


if __name__ == "__main__":
    n, d = 300, 50
    feats = torch.randn(n, d)
    adjacency = (torch.rand(n, n) > 0.97).float() + torch.eye(n)
    y = torch.randint(0, 7, (n,))
    run(feats, adjacency, y, torch.arange(0, 140), torch.arange(140, 300), epochs=5)

# Source: https://github.com/Academic-Hammer/SciTSR/pull/16
# Pitfall: the table-structure GNN applies functional dropout inside forward without the
#   training flag, so model.eval() does not disable it and inference results are perturbed.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphAttentionLayer(nn.Module):
    def __init__(self, dim, p_drop=0.3):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.p_drop = p_drop

    def forward(self, nodes, adj):
        scores = self.q(nodes) @ self.k(nodes).transpose(-1, -2) / nodes.size(-1) ** 0.5
        scores = scores.masked_fill(adj == 0, -1e9)
        attn = torch.softmax(scores, dim=-1)
        out = attn @ self.v(nodes)
        return F.dropout(F.relu(out), self.p_drop)  # expect: functional-dropout-always-on


class RelationClassifier(nn.Module):
    def __init__(self, in_dim, dim=128, n_rel=3):
        super().__init__()
        self.embed = nn.Linear(in_dim, dim)
        self.gnn = nn.ModuleList(GraphAttentionLayer(dim) for _ in range(3))
        self.edge_head = nn.Linear(2 * dim, n_rel)

    def forward(self, node_feats, adj, pairs):
        h = self.embed(node_feats)
        for layer in self.gnn:
            h = h + layer(h, adj)
        edge = torch.cat([h[:, pairs[:, 0]], h[:, pairs[:, 1]]], dim=-1)
        return self.edge_head(edge)


def predict_relations(model, node_feats, adj, pairs):
    model.eval()
    with torch.no_grad():
        return model(node_feats, adj, pairs).argmax(-1)

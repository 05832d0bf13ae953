"""Graph classification with an edge-contraction pooling layer."""
import torch
import torch.nn.functional as F
from torch import nn


class EdgeScorePool(nn.Module):
    """Scores every edge from its endpoint features and keeps the best-scoring edges."""

    def __init__(self, in_channels, dropout=0.2, add_to_edge_score=0.5):
        super().__init__()
        self.lin = nn.Linear(2 * in_channels, 1)
        self.dropout = dropout
        self.add_to_edge_score = add_to_edge_score

    def compute_edge_score(self, raw, edge_index, num_nodes):
        # softmax of each edge's score over the edges leaving the same source node
        src = edge_index[0]
        raw = raw - raw.max()
        num = raw.exp()
        den = torch.zeros(num_nodes, dtype=raw.dtype).index_add_(0, src, num)
        return num / (den[src] + 1e-16)

    def forward(self, x, edge_index):
        e = torch.cat([x[edge_index[0]], x[edge_index[1]]], dim=-1)
        e = self.lin(e).view(-1)
        e = F.dropout(e, p=self.dropout)  # expect: functional-dropout-always-on
        e = self.compute_edge_score(e, edge_index, x.size(0))
        e = e + self.add_to_edge_score
        weighted = torch.zeros_like(x).index_add_(0, edge_index[1], x[edge_index[0]] * e.unsqueeze(-1))
        return x + weighted


class GraphNet(nn.Module):
    def __init__(self, in_dim, hidden, n_classes):
        super().__init__()
        self.lin_in = nn.Linear(in_dim, hidden)
        self.pool = EdgeScorePool(hidden)
        self.lin_out = nn.Linear(hidden, n_classes)

    def forward(self, x, edge_index):
        x = F.relu(self.lin_in(x))
        x = self.pool(x, edge_index)
        return self.lin_out(x.mean(dim=0, keepdim=True))


def evaluate(model, graphs):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, edge_index, y in graphs:
            pred = model(x, edge_index).argmax(dim=-1)
            correct += int(pred.item() == y)
    return correct / len(graphs)


def train(model, graphs, epochs=5):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        model.train()
        for x, edge_index, y in graphs:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x, edge_index), torch.tensor([y]))
            loss.backward()
            optimizer.step()
        print(epoch, evaluate(model, graphs))

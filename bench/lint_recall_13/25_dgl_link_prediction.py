"""Full-graph link prediction with a GraphSAGE encoder and dot-product edge scores."""
import dgl
import torch
import torch.nn as nn
import torch.nn.functional as F
from dgl.nn import SAGEConv


class GraphSAGE(nn.Module):
    def __init__(self, in_feats, h_feats):
        super().__init__()
        self.conv1 = SAGEConv(in_feats, h_feats, "mean")
        self.conv2 = SAGEConv(h_feats, h_feats, "mean")

    def forward(self, g, in_feat):
        h = F.relu(self.conv1(g, in_feat))
        return self.conv2(g, h)


def train(g, train_u, train_v, train_label, epochs=100):
    model = GraphSAGE(g.ndata["feat"].shape[1], 16)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        model.train()
        logits = model(g, g.ndata["feat"])
        pred = torch.sigmoid((logits[train_u] * logits[train_v]).sum(dim=1))
        loss = F.binary_cross_entropy(pred, train_label)  # expect: sigmoid-before-bce
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if epoch % 10 == 0:
            print(f"In epoch {epoch}, loss: {loss.item():.4f}")
    return model


if __name__ == "__main__":
    graph = dgl.rand_graph(100, 500)
    graph.ndata["feat"] = torch.randn(100, 8)
    u, v = graph.edges()
    train(graph, u, v, torch.ones(len(u)))

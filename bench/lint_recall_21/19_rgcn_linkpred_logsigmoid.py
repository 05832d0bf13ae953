"""Relational GCN encoder with a DistMult decoder for knowledge-graph link prediction."""
import torch
import torch.nn.functional as F
from torch.nn import Parameter
from torch_geometric.nn import GAE, RGCNConv
from torch_geometric.utils import negative_sampling


class RGCNEncoder(torch.nn.Module):
    def __init__(self, num_nodes, hidden_channels, num_relations):
        super().__init__()
        self.node_emb = Parameter(torch.empty(num_nodes, hidden_channels))
        self.conv1 = RGCNConv(hidden_channels, hidden_channels, num_relations, num_blocks=5)
        self.conv2 = RGCNConv(hidden_channels, hidden_channels, num_relations, num_blocks=5)
        torch.nn.init.xavier_uniform_(self.node_emb)

    def forward(self, edge_index, edge_type):
        x = self.node_emb
        x = F.relu(self.conv1(x, edge_index, edge_type))
        x = F.dropout(x, p=0.2, training=self.training)
        return self.conv2(x, edge_index, edge_type)


class DistMultDecoder(torch.nn.Module):
    def __init__(self, num_relations, hidden_channels):
        super().__init__()
        self.rel_emb = Parameter(torch.empty(num_relations, hidden_channels))
        torch.nn.init.xavier_uniform_(self.rel_emb)

    def forward(self, z, edge_index, edge_type):
        z_src, z_dst = z[edge_index[0]], z[edge_index[1]]
        return torch.sum(z_src * self.rel_emb[edge_type] * z_dst, dim=1)


def train(model, data, optimizer):
    model.train()
    optimizer.zero_grad()
    z = model.encode(data.edge_index, data.edge_type)

    pos_out = model.decode(z, data.train_edge_index, data.train_edge_type)
    pos_loss = -torch.log(pos_out.sigmoid() + 1e-8).mean()  # expect: log-of-softmax

    neg_edge_index = negative_sampling(data.train_edge_index, data.num_nodes)
    neg_out = model.decode(z, neg_edge_index, data.train_edge_type)
    neg_loss = -torch.log(1 - neg_out.sigmoid() + 1e-8).mean()  # expect: log-of-softmax

    loss = pos_loss + neg_loss + 1e-2 * z.pow(2).mean()
    loss.backward()
    optimizer.step()
    return float(loss)


def run(data, epochs=50):
    model = GAE(
        RGCNEncoder(data.num_nodes, hidden_channels=500, num_relations=data.num_relations),
        DistMultDecoder(data.num_relations // 2, hidden_channels=500),
    )
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(1, epochs + 1):
        loss = train(model, data, optimizer)
        print(f"Epoch: {epoch:05d}, Loss: {loss:.4f}")
    return model

"""Graph convolution with symmetric degree normalisation, edge features optional."""
import torch
from torch import nn
import torch.nn.functional as F


class GraphConv(nn.Module):
    def __init__(self, in_dim, out_dim, edge_dim=None):
        super().__init__()
        self.linear = nn.Linear(in_dim, out_dim)
        self.edge_linear = nn.Linear(edge_dim, in_dim) if edge_dim else None

    def message(self, x, edge_index, edge_attr, edge_weight, num_nodes):
        node_in, node_out = edge_index
        degree_in = torch.zeros(num_nodes, device=x.device).index_add_(0, node_out, edge_weight)
        message = x[node_in] * edge_weight.unsqueeze(-1)
        if self.edge_linear is not None:
            message = message + self.edge_linear(edge_attr)
        message /= degree_in[node_in].sqrt()  # expect: unguarded-zero
        return message, node_out

    def forward(self, x, edge_index, edge_weight, edge_attr=None):
        num_nodes = x.shape[0]
        message, node_out = self.message(x, edge_index, edge_attr, edge_weight, num_nodes)
        update = torch.zeros_like(x).index_add_(0, node_out, message)
        return F.relu(self.linear(update))


def train_step(model, readout, batch, optimizer):
    model.train()
    optimizer.zero_grad()
    h = model(batch.x, batch.edge_index, batch.edge_weight, batch.edge_attr)
    pred = readout(h.mean(dim=0, keepdim=True))
    loss = F.mse_loss(pred.view(-1), batch.y.view(-1))
    loss.backward()
    optimizer.step()
    return loss.item()

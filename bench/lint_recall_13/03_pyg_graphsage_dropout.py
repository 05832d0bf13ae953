"""GraphSAGE node classification, PyG layers fed by a mini-batch sampler."""
import torch
import torch.nn.functional as F
from torch_geometric.nn import SAGEConv


class GraphSAGE(torch.nn.Module):
    def __init__(self, in_size, hidden_size, out_size):
        super().__init__()
        self.layers = torch.nn.ModuleList()
        self.layers.append(SAGEConv(in_size, hidden_size))
        self.layers.append(SAGEConv(hidden_size, hidden_size))
        self.layers.append(SAGEConv(hidden_size, out_size))

    def forward(self, x, edge_index):
        for i, layer in enumerate(self.layers):
            x = layer(x, edge_index)
            if i != len(self.layers) - 1:
                x = x.relu()
                x = F.dropout(x, p=0.5)  # expect: functional-dropout-always-on
        return x


def train_epoch(model, optimizer, batches, device):
    model.train()
    total = 0.0
    for batch in batches:
        x = batch.x.to(device)
        edge_index = batch.edge_index.to(device)
        y = batch.y.to(device)
        optimizer.zero_grad()
        out = model(x, edge_index)[: batch.batch_size]
        loss = F.cross_entropy(out, y[: batch.batch_size])
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / max(len(batches), 1)


@torch.no_grad()
def evaluate(model, batches, device):
    model.eval()
    correct = count = 0
    for batch in batches:
        out = model(batch.x.to(device), batch.edge_index.to(device))[: batch.batch_size]
        pred = out.argmax(dim=1)
        correct += (pred == batch.y[: batch.batch_size].to(device)).sum().item()
        count += batch.batch_size
    model.train()
    return correct / max(count, 1)

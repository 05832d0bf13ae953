"""GCN + MLP link predictor for an OGB link-property-prediction dataset."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torch_geometric.nn import GCNConv


class GCN(torch.nn.Module):
    def __init__(self, in_channels, hidden_channels, num_layers=3, dropout=0.5):
        super().__init__()
        self.convs = torch.nn.ModuleList([GCNConv(in_channels, hidden_channels, cached=True)])
        for _ in range(num_layers - 1):
            self.convs.append(GCNConv(hidden_channels, hidden_channels, cached=True))
        self.dropout = dropout

    def forward(self, x, adj_t):
        for conv in self.convs[:-1]:
            x = F.relu(conv(x, adj_t))
            x = F.dropout(x, p=self.dropout, training=self.training)
        return self.convs[-1](x, adj_t)


class LinkPredictor(torch.nn.Module):
    def __init__(self, hidden_channels, num_layers=3, dropout=0.5):
        super().__init__()
        self.lins = torch.nn.ModuleList([torch.nn.Linear(hidden_channels, hidden_channels) for _ in range(num_layers - 1)])
        self.lins.append(torch.nn.Linear(hidden_channels, 1))
        self.dropout = dropout

    def forward(self, x_i, x_j):
        x = x_i * x_j
        for lin in self.lins[:-1]:
            x = F.relu(lin(x))
            x = F.dropout(x, p=self.dropout, training=self.training)
        return self.lins[-1](x)


def train(model, predictor, data, split_edge, optimizer, batch_size):
    model.train()
    predictor.train()
    pos_train_edge = split_edge["train"]["edge"].to(data.x.device)
    total_loss = total_examples = 0
    for perm in DataLoader(range(pos_train_edge.size(0)), batch_size, shuffle=True):
        optimizer.zero_grad()
        h = model(data.x, data.adj_t)
        edge = pos_train_edge[perm].t()
        pos_out = predictor(h[edge[0]], h[edge[1]])
        neg_edge = torch.randint(0, data.num_nodes, edge.size(), dtype=torch.long, device=h.device)
        neg_out = predictor(h[neg_edge[0]], h[neg_edge[1]])
        loss = F.binary_cross_entropy_with_logits(pos_out, torch.ones_like(pos_out)) + \
            F.binary_cross_entropy_with_logits(neg_out, torch.zeros_like(neg_out))
        loss.backward()
        optimizer.step()
        total_loss += loss.item() * pos_out.size(0)
        total_examples += pos_out.size(0)
    return total_loss / total_examples


@torch.no_grad()
def test(model, predictor, data, split_edge, evaluator, batch_size):
    model.eval()
    h = model(data.x, data.adj_t)
    results = {}
    for split in ("valid", "test"):
        pos_edge = split_edge[split]["edge"].to(h.device)
        neg_edge = split_edge[split]["edge_neg"].to(h.device)
        pos_preds = [predictor(h[pos_edge[p].t()[0]], h[pos_edge[p].t()[1]]).squeeze().cpu()  # expect: validation-in-train-mode
                     for p in DataLoader(range(pos_edge.size(0)), batch_size)]
        neg_preds = [predictor(h[neg_edge[p].t()[0]], h[neg_edge[p].t()[1]]).squeeze().cpu()
                     for p in DataLoader(range(neg_edge.size(0)), batch_size)]
        results[split] = evaluator.eval({"y_pred_pos": torch.cat(pos_preds), "y_pred_neg": torch.cat(neg_preds)})
    return results

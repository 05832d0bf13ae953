"""Graph auto-encoder (GAE) for link prediction on a citation graph."""
import torch
import torch.nn as nn
from sklearn.metrics import average_precision_score, roc_auc_score
from torch_geometric.datasets import Planetoid
from torch_geometric.nn import GCNConv
from torch_geometric.utils import negative_sampling, train_test_split_edges


class Encoder(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv1 = GCNConv(in_channels, 2 * out_channels, cached=True)
        self.conv2 = GCNConv(2 * out_channels, out_channels, cached=True)

    def forward(self, x, edge_index):
        return self.conv2(torch.relu(self.conv1(x, edge_index)), edge_index)


class GAE(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def encode(self, x, edge_index):
        return self.encoder(x, edge_index)

    @staticmethod
    def decode(z, edge_index):
        return (z[edge_index[0]] * z[edge_index[1]]).sum(dim=-1)

    def recon_loss(self, z, pos_edge_index):
        neg_edge_index = negative_sampling(pos_edge_index, num_nodes=z.size(0))
        pos_loss = -torch.log(torch.sigmoid(self.decode(z, pos_edge_index)) + 1e-15).mean()
        neg_loss = -torch.log(1 - torch.sigmoid(self.decode(z, neg_edge_index))).mean()  # expect: log-of-softmax, unguarded-zero
        return pos_loss + neg_loss

    @torch.no_grad()
    def test(self, z, pos_edge_index, neg_edge_index):
        pos = torch.sigmoid(self.decode(z, pos_edge_index))
        neg = torch.sigmoid(self.decode(z, neg_edge_index))
        y = torch.cat([torch.ones_like(pos), torch.zeros_like(neg)]).cpu()
        pred = torch.cat([pos, neg]).cpu()
        return roc_auc_score(y, pred), average_precision_score(y, pred)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = Planetoid("data/Cora", "Cora")[0]
    data.train_mask = data.val_mask = data.test_mask = None
    data = train_test_split_edges(data).to(device)
    model = GAE(Encoder(data.num_features, 16)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(1, 201):
        model.train()
        optimizer.zero_grad()
        z = model.encode(data.x, data.train_pos_edge_index)
        loss = model.recon_loss(z, data.train_pos_edge_index)
        loss.backward()
        optimizer.step()

        model.eval()
        with torch.no_grad():
            z = model.encode(data.x, data.train_pos_edge_index)
        auc, ap = model.test(z, data.test_pos_edge_index, data.test_neg_edge_index)
        print(f"Epoch {epoch:03d} loss {loss.item():.4f} AUC {auc:.4f} AP {ap:.4f}")


if __name__ == "__main__":
    main()

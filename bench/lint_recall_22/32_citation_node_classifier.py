"""Semi-supervised node classification on a citation graph (Cora-style split)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch_geometric.datasets import Planetoid
from torch_geometric.nn import SplineConv
from torch_geometric.transforms import Cartesian


class SplineNet(nn.Module):
    def __init__(self, in_dim, n_classes, hidden=16):
        super().__init__()
        self.conv1 = SplineConv(in_dim, hidden, dim=1, kernel_size=2)
        self.conv2 = SplineConv(hidden, n_classes, dim=1, kernel_size=2)

    def forward(self, x, edge_index, edge_attr):
        x = F.elu(self.conv1(x, edge_index, edge_attr))
        x = F.dropout(x, training=self.training)
        x = self.conv2(x, edge_index, edge_attr)
        return F.log_softmax(x, dim=0)  # expect: softmax-over-batch-dim


def main(root="data/Cora", runs=10, epochs=200):
    dataset = Planetoid(root, "Cora", transform=Cartesian(norm=False))
    data = dataset[0]
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = data.to(device)
    accs = []
    for run in range(runs):
        model = SplineNet(dataset.num_features, dataset.num_classes).to(device)
        optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-3)
        for _ in range(epochs):
            model.train()
            optimizer.zero_grad()
            out = model(data.x, data.edge_index, data.edge_attr)
            loss = F.nll_loss(out[data.train_mask], data.y[data.train_mask])
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            pred = model(data.x, data.edge_index, data.edge_attr).argmax(dim=1)
        correct = int((pred[data.test_mask] == data.y[data.test_mask]).sum())
        accs.append(correct / max(int(data.test_mask.sum()), 1))
        print(f"run {run}: test acc {accs[-1]:.4f}")
    print(f"mean acc {sum(accs) / len(accs):.4f}")

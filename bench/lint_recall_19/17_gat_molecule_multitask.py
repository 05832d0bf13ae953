"""Graph attention network for multitask molecular classification (PyG)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch_geometric.loader import DataLoader
from torch_geometric.nn import GATConv, global_mean_pool


class GAT(nn.Module):
    def __init__(self, in_node_dim=39, hidden=32, heads=1, num_conv=2, predictor_hidden=64,
                 n_tasks=12, n_classes=2, dropout=0.1):
        super().__init__()
        self.n_tasks, self.n_classes = n_tasks, n_classes
        self.convs = nn.ModuleList()
        dim = in_node_dim
        for _ in range(num_conv):
            self.convs.append(GATConv(dim, hidden, heads=heads, dropout=dropout))
            dim = hidden * heads
        self.predictor = nn.Sequential(nn.Linear(dim, predictor_hidden), nn.ReLU(),
                                       nn.Linear(predictor_hidden, n_tasks * n_classes))

    def forward(self, data):
        x = data.x
        for conv in self.convs:
            x = F.elu(conv(x, data.edge_index))
        graph_feat = global_mean_pool(x, data.batch)
        logits = self.predictor(graph_feat).view(-1, self.n_tasks, self.n_classes)
        proba = F.softmax(logits)  # expect: softmax-without-dim
        return proba, logits


def train(model, train_set, valid_set, epochs=100, device="cuda"):
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
    valid_loader = DataLoader(valid_set, batch_size=256)
    for epoch in range(epochs):
        model.train()
        for data in train_loader:
            data = data.to(device)
            _, logits = model(data)
            mask = data.w > 0
            loss = F.cross_entropy(logits[mask], data.y[mask].long())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        hits = count = 0
        with torch.no_grad():
            for data in valid_loader:
                data = data.to(device)
                proba, _ = model(data)
                mask = data.w > 0
                hits += (proba.argmax(-1)[mask] == data.y[mask].long()).sum().item()
                count += int(mask.sum())
        print(f"epoch {epoch}: valid acc {hits / max(count, 1):.4f}")

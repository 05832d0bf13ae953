"""Graph classification trainer for hardware-trojan detection on circuit graphs."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch_geometric.nn import GCNConv, global_max_pool


class GraphEmbedder(nn.Module):
    def __init__(self, in_dim, hidden=200):
        super().__init__()
        self.conv1 = GCNConv(in_dim, hidden)
        self.conv2 = GCNConv(hidden, hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def embed_graph(self, x, edge_index, batch):
        h = F.relu(self.conv1(x, edge_index))
        h = F.relu(self.conv2(h, edge_index))
        return global_max_pool(h, batch)


class TrojanTrainer:
    def __init__(self, model, lr=1e-3, class_weights=None, device="cpu"):
        self.model = model.to(device)
        self.device = device
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        if class_weights is None:
            self.loss_func = nn.CrossEntropyLoss()
        else:
            self.loss_func = nn.CrossEntropyLoss(weight=class_weights.float().to(device))

    def train_epoch(self, data):
        output = self.model.embed_graph(data.x, data.edge_index, data.batch)
        output = self.model.mlp(output)
        output = F.log_softmax(output, dim=1)
        return self.loss_func(output, data.label)  # expect: softmax-before-cross-entropy

    def train(self, loader, epochs=50):
        for epoch in range(epochs):
            self.model.train()
            running = 0.0
            for data in loader:
                data = data.to(self.device)
                self.optimizer.zero_grad()
                loss = self.train_epoch(data)
                loss.backward()
                self.optimizer.step()
                running += loss.item()
            print(f"epoch {epoch} loss {running / max(len(loader), 1):.4f}")

    @torch.no_grad()
    def evaluate(self, loader):
        self.model.eval()
        correct = total = 0
        for data in loader:
            data = data.to(self.device)
            logits = self.model.mlp(self.model.embed_graph(data.x, data.edge_index, data.batch))
            correct += (logits.argmax(dim=1) == data.label).sum().item()
            total += data.label.numel()
        return correct / max(total, 1)

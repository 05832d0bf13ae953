"""A hand-rolled multi-layer graph convolution (dense adjacency) with dropout."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseGCN(nn.Module):
    def __init__(self, in_feats, hidden, n_classes, n_layers=3, dropout=0.5):
        super().__init__()
        self.dropout = dropout
        self.input_proj = nn.Linear(in_feats, hidden)
        self.hidden_layers = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(n_layers - 1)])
        self.classifier = nn.Linear(hidden, n_classes)

    def propagate(self, adj_norm, H):
        return adj_norm @ H

    def forward(self, adj_norm, X):
        H = F.relu(self.propagate(adj_norm, self.input_proj(X)))
        H = F.dropout(H, self.dropout)  # expect: functional-dropout-always-on
        for layer in self.hidden_layers:
            H = F.relu(self.propagate(adj_norm, layer(H)))
            H = F.dropout(H, self.dropout)  # expect: functional-dropout-always-on
        return self.classifier(H)


def fit(model, adj_norm, X, labels, train_mask, epochs=200, lr=1e-2):
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=5e-4)
    for epoch in range(epochs):
        model.train()
        opt.zero_grad()
        logits = model(adj_norm, X)
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        loss.backward()
        opt.step()
        if epoch % 20 == 0:
            print(f"epoch {epoch:3d} loss {loss.item():.4f}")
    return model

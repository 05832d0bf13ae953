"""Multiple-instance learning on slide tiles: gated attention pooling and a bag classifier."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim


class GatedAttentionLayer(nn.Module):
    def __init__(self, input_dims, hidden_dims=128, attention_dims=1):
        super().__init__()
        self.attention_V = nn.Sequential(nn.Linear(input_dims, hidden_dims), nn.Tanh())
        self.attention_U = nn.Sequential(nn.Linear(input_dims, hidden_dims), nn.Sigmoid())
        self.attention_weights = nn.Linear(hidden_dims, attention_dims)

    def forward(self, features):
        A_V = self.attention_V(features)
        A_U = self.attention_U(features)
        A = self.attention_weights(A_V * A_U)
        A = torch.transpose(A, 1, 0)
        A = F.softmax(A)  # expect: softmax-without-dim
        pooled = torch.mm(A, features)
        return A, pooled


class DeepMIL(nn.Module):
    def __init__(self, encoder, feat_dim=512, n_classes=2):
        super().__init__()
        self.encoder = encoder
        self.aggregation = GatedAttentionLayer(feat_dim)
        self.classifier = nn.Linear(feat_dim, n_classes)

    def forward(self, tiles):
        with torch.no_grad():
            feats = self.encoder(tiles)
        attn, bag = self.aggregation(feats)
        return self.classifier(bag), attn


def train_bags(model, bags, epochs=5):
    params = list(model.aggregation.parameters()) + list(model.classifier.parameters())
    opt = optim.Adam(params, lr=1e-4)
    for epoch in range(epochs):
        model.train()
        for tiles, label in bags:
            logits, _ = model(tiles)
            loss = F.cross_entropy(logits, label.view(1))
            opt.zero_grad()
            loss.backward()
            opt.step()

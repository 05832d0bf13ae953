# Source: https://github.com/mlelarge/graph_neural_net/pull/37
# Pitfall: The edge-scoring head ends in a softmax and its output is handed to CrossEntropyLoss, which
# applies log_softmax again; the doubly normalised scores flatten the loss and slow learning.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class EdgeScorer(nn.Module):
    def __init__(self, feat_dim, hidden):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(feat_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.normalise = nn.Softmax(dim=-1)

    def forward(self, graph_a, graph_b):
        emb_a = self.encoder(graph_a)
        emb_b = self.encoder(graph_b)
        affinity = emb_a @ emb_b.transpose(-1, -2)
        return self.normalise(affinity)


def run_epoch(net, batches, opt, device):
    criterion = nn.CrossEntropyLoss()
    net.train()
    seen = 0.0
    for left, right, matching in batches:
        left, right, matching = left.to(device), right.to(device), matching.to(device)
        opt.zero_grad()
        scores = net(left, right)
        n_nodes = scores.shape[-1]
        loss = criterion(scores.reshape(-1, n_nodes), matching.reshape(-1))  # expect: softmax-before-cross-entropy
        loss.backward()
        opt.step()
        seen += loss.item()
    return seen / max(len(batches), 1)

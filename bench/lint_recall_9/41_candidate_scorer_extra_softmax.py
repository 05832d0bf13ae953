# Source: https://github.com/bowang-lab/Transformer-GCN-QA/pull/32
# Pitfall: the answer-candidate scorer ends with a softmax although training uses CrossEntropyLoss, which
#   applies log_softmax itself; the doubled softmax flattens the scores and weakens the gradient signal.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class CandidateGraphScorer(nn.Module):
    def __init__(self, in_dim=768, hidden=512, n_layers=3, dropout=0.1):
        super().__init__()
        self.proj = nn.Linear(in_dim, hidden)
        self.gcn = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(n_layers)])
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(hidden, 1)

    def forward(self, node_feats, adj, candidate_index):
        h = F.relu(self.proj(node_feats))
        for layer in self.gcn:
            h = F.relu(layer(torch.bmm(adj, self.dropout(h)))) + h
        cand = torch.gather(h, 1, candidate_index.unsqueeze(-1).expand(-1, -1, h.size(-1)))
        scores = self.out(cand).squeeze(-1)
        return F.softmax(scores, dim=-1)  # expect: softmax-before-cross-entropy


def train(model, loader, epochs=10, lr=1e-4, device="cuda"):
    model.to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for feats, adj, cand_idx, answer in loader:
            feats, adj = feats.to(device), adj.to(device)
            cand_idx, answer = cand_idx.to(device), answer.to(device)
            optimizer.zero_grad()
            loss = criterion(model(feats, adj, cand_idx), answer)
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: loss {total / len(loader):.4f}")

"""Listwise ranking loss for text matching: one positive followed by num_neg negatives per group."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RankCrossEntropyLoss(nn.Module):
    def __init__(self, num_neg: int = 1):
        super().__init__()
        self.num_neg = num_neg

    def forward(self, y_pred: torch.Tensor, y_true: torch.Tensor) -> torch.Tensor:
        step = self.num_neg + 1
        logits = y_pred[::step, :]
        labels = y_true[::step, :]
        for neg_idx in range(self.num_neg):
            logits = torch.cat((logits, y_pred[(neg_idx + 1)::step, :]), dim=-1)
            labels = torch.cat((labels, y_true[(neg_idx + 1)::step, :]), dim=-1)
        return -torch.mean(torch.sum(labels * torch.log(F.softmax(logits, dim=-1)), dim=-1))  # expect: log-of-softmax, unguarded-zero


class DSSMLike(nn.Module):
    def __init__(self, vocab=30000, dim=128):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.query_tower = nn.Sequential(nn.Linear(dim, 128), nn.Tanh())
        self.doc_tower = nn.Sequential(nn.Linear(dim, 128), nn.Tanh())

    def forward(self, query, doc):
        q = self.query_tower(self.emb(query))
        d = self.doc_tower(self.emb(doc))
        return F.cosine_similarity(q, d, dim=-1).unsqueeze(-1) * 10.0


def train(model, batches, num_neg=4, epochs=3):
    loss_fn = RankCrossEntropyLoss(num_neg=num_neg)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        epoch_loss = 0.0
        for query, doc, label in batches:
            optimizer.zero_grad()
            loss = loss_fn(model(query, doc), label)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(f"epoch {epoch} loss {epoch_loss / max(len(batches), 1):.4f}")


if __name__ == "__main__":
    groups = 8
    rows = groups * 5
    data = [(torch.randint(0, 30000, (rows, 6)), torch.randint(0, 30000, (rows, 30)),
             torch.tensor([[1.0], [0.0], [0.0], [0.0], [0.0]] * groups)) for _ in range(20)]
    train(DSSMLike(), data)

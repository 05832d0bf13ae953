"""Link prediction on a knowledge graph: keep per-batch losses for the epoch summary."""
import numpy as np
import torch
import torch.nn as nn


class DistMultScorer(nn.Module):
    def __init__(self, n_ent, n_rel, dim=100):
        super().__init__()
        self.ent = nn.Embedding(n_ent, dim)
        self.rel = nn.Embedding(n_rel, dim)
        self.drop = nn.Dropout(0.2)

    def forward(self, heads, rels):
        h = self.drop(self.ent(heads))
        r = self.rel(rels)
        return (h * r) @ self.ent.weight.t()


def batches(triples, batch_size):
    perm = torch.randperm(triples.shape[0])
    for start in range(0, len(perm), batch_size):
        yield triples[perm[start:start + batch_size]]


def main(n_ent=500, n_rel=20, epochs=10):
    triples = torch.stack([
        torch.randint(0, n_ent, (4000,)),
        torch.randint(0, n_rel, (4000,)),
        torch.randint(0, n_ent, (4000,)),
    ], dim=1)
    model = DistMultScorer(n_ent, n_rel)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.BCEWithLogitsLoss()

    for epoch in range(epochs):
        model.train()
        train_loss = []
        for batch in batches(triples, 128):
            heads, rels, tails = batch[:, 0], batch[:, 1], batch[:, 2]
            label = torch.zeros(len(batch), n_ent)
            label[torch.arange(len(batch)), tails] = 1.0
            label = 0.9 * label + 0.1 / n_ent

            logits = model(heads, rels)
            tr_loss = loss_fn(logits, label)
            train_loss.append(tr_loss)  # expect: running-loss-keeps-graph

            optimizer.zero_grad()
            tr_loss.backward()
            optimizer.step()

        mean_loss = np.mean([t.item() for t in train_loss])
        print(f"epoch {epoch}: train loss {mean_loss:.4f}")


if __name__ == "__main__":
    main()

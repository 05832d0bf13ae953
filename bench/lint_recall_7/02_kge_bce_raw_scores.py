# Source: https://github.com/pykeen/pykeen/issues/87
# Pitfall: the knowledge-graph model's raw interaction scores (never squashed) are fed to plain
#   BCELoss, which expects probabilities in [0, 1]; training fails or the loss is meaningless.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class ConvTripleScorer(nn.Module):
    """1-N scorer: (head, relation) -> one score per candidate tail entity."""

    def __init__(self, num_entities, num_relations, dim=100):
        super().__init__()
        self.dim = dim
        self.entity = nn.Embedding(num_entities, dim)
        self.relation = nn.Embedding(num_relations, dim)
        self.conv = nn.Conv2d(1, 16, kernel_size=3, padding=1)
        self.hidden = nn.Linear(16 * 2 * dim, dim)
        self.to_tails = nn.Linear(dim, num_entities)

    def score_h_r(self, heads, rels):
        stacked = torch.stack([self.entity(heads), self.relation(rels)], dim=1)
        x = torch.relu(self.conv(stacked.unsqueeze(1)))
        x = torch.relu(self.hidden(x.flatten(1)))
        return self.to_tails(x)


class OneToNTrainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.loss = nn.BCELoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def train_batch(self, heads, rels, tail_targets):
        self.model.train()
        self.optimizer.zero_grad()
        scores = self.model.score_h_r(heads, rels)
        loss = self.loss(scores, tail_targets)  # expect: bce-on-logits
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    n_ent, n_rel = 500, 12
    trainer = OneToNTrainer(ConvTripleScorer(n_ent, n_rel))
    for it in range(50):
        heads = torch.randint(0, n_ent, (64,))
        rels = torch.randint(0, n_rel, (64,))
        targets = torch.zeros(64, n_ent)
        targets[torch.arange(64), torch.randint(0, n_ent, (64,))] = 1.0
        value = trainer.train_batch(heads, rels, targets)
        if it % 10 == 0:
            print(f"iter {it}: loss {value:.4f}")

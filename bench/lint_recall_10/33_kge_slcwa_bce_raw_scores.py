# Source: https://github.com/pykeen/pykeen/commit/ad15d9f64b01c99ae4c7b32cf51ddf7cb98ed060
# Pitfall: the pointwise "BCE" loss of the knowledge-graph trainer is nn.BCELoss applied to raw interaction
#   scores, which are unbounded, not probabilities; the fix switches the loss to BCEWithLogitsLoss.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class DistMultScorer(nn.Module):
    def __init__(self, num_entities, num_relations, dim=200):
        super().__init__()
        self.entity = nn.Embedding(num_entities, dim)
        self.relation = nn.Embedding(num_relations, dim)
        nn.init.xavier_uniform_(self.entity.weight)
        nn.init.xavier_uniform_(self.relation.weight)

    def score_hrt(self, hrt):
        h = self.entity(hrt[:, 0])
        r = self.relation(hrt[:, 1])
        t = self.entity(hrt[:, 2])
        return (h * r * t).sum(dim=-1)


def corrupt_tails(pos, num_entities, num_negs):
    neg = pos.repeat_interleave(num_negs, dim=0).clone()
    neg[:, 2] = torch.randint(num_entities, (neg.size(0),), device=pos.device)
    return neg


class SLCWATrainer:
    def __init__(self, model, num_entities, lr=1e-3, num_negs=4):
        self.model = model
        self.num_entities = num_entities
        self.num_negs = num_negs
        self.loss = nn.BCELoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def train_epoch(self, loader):
        self.model.train()
        total = 0.0
        for pos in loader:
            neg = corrupt_tails(pos, self.num_entities, self.num_negs)
            scores = self.model.score_hrt(torch.cat([pos, neg]))
            labels = torch.cat([torch.ones(len(pos)), torch.zeros(len(neg))]).to(scores.device)
            loss = self.loss(scores, labels)  # expect: bce-on-logits
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
        return total / max(len(loader), 1)

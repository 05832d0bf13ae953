"""TransE-style knowledge-graph embedding trained with a logistic loss over corrupted triples."""
import torch
import torch.nn as nn


def relation_logistic_loss(phs, prs, pts, nhs, nrs, nts):
    pos_distance = phs + prs - pts
    neg_distance = nhs + nrs - nts
    pos_score = -torch.sum(torch.square(pos_distance), dim=1)
    neg_score = -torch.sum(torch.square(neg_distance), dim=1)
    pos_loss = torch.sum(torch.log(1 + torch.exp(-pos_score)))  # expect: unshifted-logsumexp
    neg_loss = torch.sum(torch.log(1 + torch.exp(neg_score)))  # expect: unshifted-logsumexp
    return pos_loss + neg_loss


class TransE(nn.Module):
    def __init__(self, n_entities, n_relations, dim=100):
        super().__init__()
        self.ent = nn.Embedding(n_entities, dim)
        self.rel = nn.Embedding(n_relations, dim)
        nn.init.xavier_uniform_(self.ent.weight)
        nn.init.xavier_uniform_(self.rel.weight)

    def embed(self, h, r, t):
        return self.ent(h), self.rel(r), self.ent(t)


def corrupt(heads, tails, n_entities):
    mask = torch.rand(heads.shape, device=heads.device) < 0.5
    random_ents = torch.randint(0, n_entities, heads.shape, device=heads.device)
    return torch.where(mask, random_ents, heads), torch.where(mask, tails, random_ents)


def train(model, triples, n_entities, epochs=100, batch_size=1024, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loader = torch.utils.data.DataLoader(triples, batch_size=batch_size, shuffle=True)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for batch in loader:
            h, r, t = batch[:, 0], batch[:, 1], batch[:, 2]
            nh, nt = corrupt(h, t, n_entities)
            loss = relation_logistic_loss(*model.embed(h, r, t), *model.embed(nh, r, nt)) / h.size(0)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch}: {total / len(loader):.4f}")

# Source: https://github.com/huggingface/sentence-transformers/pull/4019
# Pitfall: the batch-hard soft-margin triplet loss computes log1p(exp(margin)) by hand; a large
#   positive margin makes exp overflow to inf, giving an infinite loss and non-finite gradients.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def pairwise_distances(emb):
    sq = (emb * emb).sum(dim=1)
    dist = sq.unsqueeze(0) - 2.0 * emb @ emb.t() + sq.unsqueeze(1)
    return dist.clamp(min=0.0).add(1e-12).sqrt()


class HardestSoftMarginTriplet(nn.Module):
    def forward(self, embeddings, labels):
        dist = pairwise_distances(embeddings)
        same = labels.unsqueeze(0) == labels.unsqueeze(1)
        eye = torch.eye(len(labels), dtype=torch.bool, device=labels.device)
        pos_mask = (same & ~eye).float()
        hardest_pos = (dist * pos_mask).max(dim=1).values
        max_dist = dist.max(dim=1, keepdim=True).values
        neg_filled = dist + max_dist * same.float()
        hardest_neg = neg_filled.min(dim=1).values
        margin = hardest_pos - hardest_neg
        per_anchor = torch.log1p(torch.exp(margin))  # expect: unshifted-logsumexp
        return per_anchor.mean()


class Encoder(nn.Module):
    def __init__(self, vocab=30000, dim=384):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, token_ids):
        return self.proj(self.emb(token_ids))


if __name__ == "__main__":
    encoder = Encoder()
    loss_fn = HardestSoftMarginTriplet()
    optimizer = torch.optim.AdamW(encoder.parameters(), lr=2e-5)
    for step in range(100):
        ids = torch.randint(0, 30000, (32, 24))
        labels = torch.randint(0, 8, (32,))
        encoder.train()
        optimizer.zero_grad()
        loss = loss_fn(F.normalize(encoder(ids), dim=-1) * 20.0, labels)
        loss.backward()
        optimizer.step()
        if step % 20 == 0:
            print(step, loss.item())

# Source: https://github.com/mlberkeley/scae-pytorch/pull/4
# Pitfall: The mixture log-likelihood is computed as log(sum(exp(...))) over the capsule votes; the exp overflows to inf after a few epochs and the loss becomes NaN (fixed by switching to torch.logsumexp).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class VoteMixture(nn.Module):
    def __init__(self, scale=1.0):
        super().__init__()
        self.log_scale = nn.Parameter(torch.tensor(float(scale)).log())

    def log_prob(self, parts, votes, vote_logits):
        # parts: (B, P, 2), votes: (B, K, P, 2), vote_logits: (B, K, P)
        scale = self.log_scale.exp()
        sq = ((parts.unsqueeze(1) - votes) ** 2).sum(-1)
        gaussian_log = -0.5 * sq / scale ** 2 - 2 * self.log_scale
        mixing = torch.log_softmax(vote_logits, dim=1)
        joint = mixing + gaussian_log
        per_part = torch.log(torch.sum(torch.exp(joint), dim=1))  # expect: unshifted-logsumexp
        return per_part.sum(dim=1)


def train(encoder, mixture, loader, epochs=10):
    params = list(encoder.parameters()) + list(mixture.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-4)
    for epoch in range(epochs):
        encoder.train()
        for parts in loader:
            votes, vote_logits = encoder(parts)
            loss = -mixture.log_prob(parts, votes, vote_logits).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

# Source: https://github.com/summerlvsong/Aggregation-Cross-Entropy/issues/2
# Pitfall: per-class softmax scores summed over time steps and then logged: a class that
# never appears has an aggregate of exactly 0, log(0) = -inf and the loss is NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def aggregation_ce(logits, counts):
    # logits: (T, B, C); counts: (B, C) normalised label counts
    probs = F.softmax(logits, dim=-1)
    agg = probs.sum(0) / logits.shape[0]
    return -(counts * torch.log(agg)).sum(-1).mean()  # expect: unguarded-zero


def step(model, opt, x, counts):
    opt.zero_grad()
    loss = aggregation_ce(model(x), counts)
    loss.backward()
    opt.step()

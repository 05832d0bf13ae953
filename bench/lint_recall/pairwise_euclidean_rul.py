# Source: https://github.com/tilman151/rul-adapt/pull/22
# Pitfall: a pairwise Euclidean distance (for an MMD-style adaptation loss) with no epsilon:
# identical feature vectors give distance 0 and an undefined gradient.
# Reproduced in our own words, not the original code.
import torch


def pairwise_euclidean(x, y):
    sq = (x.unsqueeze(1) - y.unsqueeze(0)) ** 2
    return torch.sqrt(sq.sum(-1))  # expect: unguarded-zero


def adaptation_loss(source_feats, target_feats):
    return pairwise_euclidean(source_feats, target_feats).mean()

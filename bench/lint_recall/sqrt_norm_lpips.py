# Source: https://github.com/richzhang/PerceptualSimilarity/issues/69
# Pitfall: the feature normaliser takes sqrt of a sum of squares with no epsilon inside it;
# an all-zero feature vector gives an infinite gradient (SqrtBackward returned NaN).
# Reproduced in our own words, not the original code.
import torch


def normalize_tensor(in_feat, eps=1e-10):
    norm_factor = torch.sqrt(torch.sum(in_feat ** 2, dim=1, keepdim=True))  # expect: unguarded-zero
    return in_feat / (norm_factor + eps)


def lpips_distance(feats0, feats1):
    return sum(((normalize_tensor(a) - normalize_tensor(b)) ** 2).mean() for a, b in zip(feats0, feats1))

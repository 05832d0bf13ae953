# Source: https://github.com/seung-lab/torchfields/pull/18
# Pitfall: The vector-field voting normalises exp(score / T) by its sum by hand, without subtracting the
# maximum; large scores overflow exp to inf and the weights become NaN (fixed by using softmax).
# Reproduced in our own words, not the original code.
import torch


def vote_fields(fields, scores, temperature=1.0):
    """fields: (K, 2, H, W) candidate displacement fields; scores: (K, H, W) agreement scores."""
    w = torch.exp(scores / temperature)
    weights = w / w.sum(dim=0, keepdim=True)  # expect: unshifted-softmax
    return (fields * weights.unsqueeze(1)).sum(dim=0)


def consensus_loss(fields, scores, target_field, temperature=0.1):
    voted = vote_fields(fields, scores, temperature)
    return ((voted - target_field) ** 2).mean()

# Source: https://github.com/bowang-lab/Transformer-GCN-QA/pull/22
# Pitfall: the project's own softmax helper exponentiates unshifted scores; the NaN losses
# went away once it was replaced by PyTorch's (log_)softmax.
# Reproduced in our own words, not the original code.
import torch


def softmax(x, dim=-1):
    return torch.exp(x) / torch.exp(x).sum(dim=dim, keepdim=True)  # expect: unshifted-softmax


def candidate_loss(scores, answer_mask):
    p = softmax(scores)
    return -(p * answer_mask).sum(-1).clamp_min(1e-12).log().mean()

# Source: https://github.com/lightly-ai/lightly/pull/1341
# Pitfall: The prior-matching term calls F.kl_div with the mean predicted probabilities as its input; kl_div expects log-probabilities as input, so the regulariser is computed on the wrong quantity (fixed by taking the log first).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PriorMatchingMSNLoss(nn.Module):
    def __init__(self, temperature=0.1, regularization_weight=1.0, power_law_exponent=0.25):
        super().__init__()
        self.temperature = temperature
        self.regularization_weight = regularization_weight
        self.power_law_exponent = power_law_exponent

    def forward(self, anchors, targets, prototypes):
        anchors = F.normalize(anchors, dim=1)
        targets = F.normalize(targets, dim=1)
        prototypes = F.normalize(prototypes, dim=1)
        anchor_probs = F.softmax(anchors @ prototypes.T / self.temperature, dim=1)
        with torch.no_grad():
            target_probs = F.softmax(targets @ prototypes.T / 0.025, dim=1)
        ce = torch.mean(torch.sum(-target_probs * F.log_softmax(anchors @ prototypes.T / self.temperature, dim=1), dim=1))
        mean_probs = anchor_probs.mean(dim=0)
        ranks = torch.arange(1, prototypes.shape[0] + 1, device=anchors.device, dtype=anchors.dtype)
        prior = ranks ** -self.power_law_exponent
        prior = prior / prior.sum()
        reg = F.kl_div(mean_probs, prior, reduction="sum")  # expect: kl-div-input-not-log
        return ce + self.regularization_weight * reg

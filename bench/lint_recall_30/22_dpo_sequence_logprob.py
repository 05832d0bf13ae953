"""DPO fine-tuning wrapper around an autoregressive transformer."""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


def sequence_log_prob(logits, seq):
    prob = logits.softmax(dim=-1)
    token_prob = prob.gather(-1, seq.unsqueeze(-1)).squeeze(-1)
    return torch.log(token_prob)  # expect: log-of-softmax


class DPO(nn.Module):
    def __init__(self, model, beta=0.1):
        super().__init__()
        self.policy = model
        self.ref = copy.deepcopy(model).eval()
        for p in self.ref.parameters():
            p.requires_grad_(False)
        self.beta = beta

    def masked_logprob(self, net, seq, mask):
        lp = sequence_log_prob(net(seq[:, :-1]), seq[:, 1:])
        return (lp * mask[:, 1:]).sum(-1)

    def forward(self, preferred, unpreferred, pref_mask, unpref_mask):
        with torch.no_grad():
            ref_w = self.masked_logprob(self.ref, preferred, pref_mask)
            ref_l = self.masked_logprob(self.ref, unpreferred, unpref_mask)
        pol_w = self.masked_logprob(self.policy, preferred, pref_mask)
        pol_l = self.masked_logprob(self.policy, unpreferred, unpref_mask)
        logits = (pol_w - ref_w) - (pol_l - ref_l)
        return -F.logsigmoid(self.beta * logits).mean()

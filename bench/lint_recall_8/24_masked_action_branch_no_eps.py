# Source: https://github.com/Unity-Technologies/ml-agents/pull/4664
# Pitfall: action masking renormalises the masked softmax by its sum and takes its log without an
# epsilon; with large action spaces the sum or a probability hits 0 and the policy outputs NaN.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class MaskedMultiCategorical(nn.Module):
    def __init__(self, hidden_size, branch_sizes):
        super().__init__()
        self.branch_sizes = list(branch_sizes)
        self.branches = nn.ModuleList([nn.Linear(hidden_size, n) for n in self.branch_sizes])

    def _mask_branch(self, logits, mask):
        raw_probs = torch.nn.functional.softmax(logits, dim=-1) * mask
        normalized_probs = raw_probs / torch.sum(raw_probs, dim=-1, keepdim=True)  # expect: unguarded-zero
        normalized_logits = torch.log(normalized_probs)  # expect: unguarded-zero
        return normalized_logits

    def forward(self, hidden, masks):
        dists = []
        offset = 0
        for branch, size in zip(self.branches, self.branch_sizes):
            logits = branch(hidden)
            mask = masks[:, offset:offset + size]
            offset += size
            dists.append(torch.distributions.Categorical(logits=self._mask_branch(logits, mask)))
        return dists


def policy_loss(dists, actions, advantages):
    log_probs = torch.stack([d.log_prob(a) for d, a in zip(dists, actions.unbind(-1))], dim=-1).sum(-1)
    entropy = torch.stack([d.entropy() for d in dists], dim=-1).sum(-1)
    return -(log_probs * advantages).mean() - 0.01 * entropy.mean()


if __name__ == "__main__":
    body = nn.Sequential(nn.Linear(20, 64), nn.ReLU())
    head = MaskedMultiCategorical(64, [5, 3])
    opt = torch.optim.Adam(list(body.parameters()) + list(head.parameters()), lr=3e-4)
    obs = torch.randn(32, 20)
    masks = (torch.rand(32, 8) > 0.3).float()
    masks[:, 0] = 1.0
    masks[:, 5] = 1.0
    dists = head(body(obs), masks)
    actions = torch.stack([d.sample() for d in dists], dim=-1)
    loss = policy_loss(dists, actions, torch.randn(32))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(loss.item())

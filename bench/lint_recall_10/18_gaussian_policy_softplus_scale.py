# Source: https://github.com/kengz/SLM-Lab/commit/e7584bc18e845e296e315bb1c29c13b6d70ee419
# Pitfall: the policy keeps its action stdev positive with a hand-written softplus, log(1 + exp(x)); for large
#   x the exp overflows to inf and the distribution (and the PPO loss) becomes inf/NaN. F.softplus is stable.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.distributions import Normal


class GaussianActor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.loc_head = nn.Linear(hidden, act_dim)
        self.scale_head = nn.Linear(hidden, act_dim)

    def forward(self, obs):
        h = self.body(obs)
        loc = self.loc_head(h)
        raw = self.scale_head(h)
        scale = torch.log(1 + torch.exp(raw)) + 1e-8  # expect: unshifted-logsumexp
        return Normal(loc, scale)


def ppo_policy_loss(actor, obs, actions, old_log_probs, advantages, clip_eps=0.2, ent_coef=0.01):
    dist = actor(obs)
    log_probs = dist.log_prob(actions).sum(-1)
    ratios = torch.exp(log_probs - old_log_probs)
    surr1 = ratios * advantages
    surr2 = torch.clamp(ratios, 1 - clip_eps, 1 + clip_eps) * advantages
    entropy = dist.entropy().sum(-1).mean()
    return -torch.min(surr1, surr2).mean() - ent_coef * entropy


def update(actor, optimizer, rollouts, epochs=10, minibatch=64):
    obs, actions, old_lp, adv = rollouts
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    n = obs.size(0)
    for _ in range(epochs):
        perm = torch.randperm(n)
        for start in range(0, n, minibatch):
            idx = perm[start:start + minibatch]
            loss = ppo_policy_loss(actor, obs[idx], actions[idx], old_lp[idx], adv[idx])
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(actor.parameters(), 0.5)
            optimizer.step()

# Source: https://github.com/ShangtongZhang/DeepRL/pull/4
# Pitfall: the Gaussian policy adds its epsilon inside softplus (softplus(x + 1e-5)) instead of to the result,
#   so for very negative x the std is exactly 0, log(std) is -inf and the policy loss becomes NaN.
# Reproduced in our own words, not the original code.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianActor(nn.Module):
    def __init__(self, obs_dim=11, act_dim=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh())
        self.mean_head = nn.Linear(64, act_dim)
        self.std_head = nn.Linear(64, act_dim)

    def forward(self, obs):
        h = self.body(obs)
        mean = torch.tanh(self.mean_head(h))
        std = F.softplus(self.std_head(h) + 1e-5)
        return mean, std


def log_prob(actor, obs, action):
    mean, std = actor(obs)
    var = std.pow(2)
    log_density = -(action - mean).pow(2) / (2 * var) - 0.5 * math.log(2 * math.pi) - std.log()  # expect: unguarded-zero
    return log_density.sum(dim=-1)


def policy_step(actor, optimizer, obs, action, advantage):
    optimizer.zero_grad()
    loss = -(log_prob(actor, obs, action) * advantage).mean()
    loss.backward()
    optimizer.step()
    return loss.item()

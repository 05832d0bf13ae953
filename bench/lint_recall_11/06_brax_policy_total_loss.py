"""Colab-style PyTorch PPO-ish training loop for a Brax environment (rollouts already on GPU)."""
import torch
from torch import nn, optim


class Agent(nn.Module):
    def __init__(self, obs_size, act_size, hidden=64):
        super().__init__()
        self.policy = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, 2 * act_size))
        self.value = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def dist(self, obs):
        loc, scale = self.policy(obs).chunk(2, dim=-1)
        return torch.distributions.Normal(loc, nn.functional.softplus(scale) + 1e-3)

    def loss(self, obs, actions, advantages, returns, old_logp, clip=0.2):
        logp = self.dist(obs).log_prob(actions).sum(-1)
        ratio = torch.exp(logp - old_logp)
        surr = torch.min(ratio * advantages, ratio.clamp(1 - clip, 1 + clip) * advantages)
        value_loss = (self.value(obs).squeeze(-1) - returns).pow(2).mean()
        return -surr.mean() + 0.5 * value_loss


def train(agent, rollouts, num_updates=100, lr=3e-4):
    optimizer = optim.Adam(agent.parameters(), lr=lr)
    total_loss = 0.0
    for update in range(num_updates):
        for obs, actions, advantages, returns, old_logp in rollouts:
            optimizer.zero_grad()
            loss = agent.loss(obs, actions, advantages, returns, old_logp)
            loss.backward()
            optimizer.step()
            total_loss += loss  # expect: running-loss-keeps-graph
        if update % 10 == 0:
            print(f"update {update}: mean loss {total_loss / (update + 1):.4f}")
    return total_loss

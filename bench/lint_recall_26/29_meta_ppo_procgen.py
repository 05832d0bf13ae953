"""PPO update for a meta-RL agent on Procgen; rollout statistics are gathered as numpy arrays."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=256):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.pi = nn.Linear(hidden, n_actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def ppo_loss_value(policy, obs, actions, old_log_probs, advantages, returns, clip=0.2, vf_coef=0.5):
    logits, values = policy(obs)
    dist = Categorical(logits=logits)
    log_probs = dist.log_prob(actions).detach().cpu().numpy()
    ratio = np.exp(log_probs - old_log_probs)
    surr = np.minimum(ratio * advantages, np.clip(ratio, 1 - clip, 1 + clip) * advantages)
    value_err = (values.detach().cpu().numpy() - returns) ** 2
    return float(-surr.mean() + vf_coef * value_err.mean())


def update(policy, optimizer, batch, epochs=4):
    obs = torch.as_tensor(batch["obs"], dtype=torch.float32)
    actions = torch.as_tensor(batch["actions"], dtype=torch.long)
    for _ in range(epochs):
        value = ppo_loss_value(policy, obs, actions, batch["log_probs"], batch["advantages"], batch["returns"])
        loss = torch.tensor(value, requires_grad=True)  # expect: backward-without-graph
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return value

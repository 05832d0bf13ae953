"""State-dependent exploration (gSDE) head for a continuous-action actor."""
import torch as th
import torch.nn as nn
from torch.distributions import Normal


class StateDependentNoise(nn.Module):
    def __init__(self, latent_dim, action_dim, log_std_init=-2.0, full_std=True, epsilon=1e-6):
        super().__init__()
        self.latent_dim = latent_dim
        self.action_dim = action_dim
        self.full_std = full_std
        self.epsilon = epsilon
        self.mean_actions = nn.Linear(latent_dim, action_dim)
        shape = (latent_dim, action_dim) if full_std else (latent_dim, 1)
        self.log_std = nn.Parameter(th.ones(*shape) * log_std_init)
        self.distribution = None
        self.exploration_mat = None
        self.sample_weights()

    def get_std(self):
        std = self.log_std.exp()
        if self.full_std:
            return std
        return th.ones(self.latent_dim, self.action_dim, device=std.device) * std

    def sample_weights(self):
        std = self.get_std()
        self.exploration_mat = Normal(th.zeros_like(std), std).rsample()

    def forward(self, latent_pi):
        mean = self.mean_actions(latent_pi)
        variance = th.mm(latent_pi.detach() ** 2, self.get_std() ** 2)
        self.distribution = Normal(mean, th.sqrt(variance))  # expect: unguarded-zero
        return self.distribution

    def sample(self, latent_pi):
        noise = th.mm(latent_pi.detach(), self.exploration_mat)
        return self.distribution.mean + noise


class Actor(nn.Module):
    def __init__(self, obs_dim, action_dim, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.head = StateDependentNoise(hidden, action_dim)
        self.value = nn.Linear(hidden, 1)

    def evaluate(self, obs, actions):
        latent = self.body(obs)
        dist = self.head(latent)
        return self.value(latent).flatten(), dist.log_prob(actions).sum(-1), dist.entropy().sum(-1)


def a2c_update(actor, optimizer, obs, actions, returns, ent_coef=0.0, vf_coef=0.5):
    values, log_prob, entropy = actor.evaluate(obs, actions)
    advantages = (returns - values).detach()
    policy_loss = -(advantages * log_prob).mean()
    value_loss = (returns - values).pow(2).mean()
    loss = policy_loss + vf_coef * value_loss - ent_coef * entropy.mean()
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(actor.parameters(), 0.5)
    optimizer.step()
    actor.head.sample_weights()
    return loss.item()

"""Rollout collection for synchronous A2C: sample one action per parallel environment each step."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Policy(nn.Module):
    def __init__(self, obs_dim=8, n_actions=4, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.v = nn.Linear(hidden, 1)
        self.pi = nn.Linear(hidden, n_actions)

    def forward(self, obs):
        h = self.body(obs)
        return self.v(h), self.pi(h)


class RolloutStorage:
    def __init__(self, num_steps, num_processes, obs_dim):
        self.states = torch.zeros(num_steps + 1, num_processes, obs_dim)
        self.actions = torch.zeros(num_steps, num_processes, dtype=torch.long)
        self.rewards = torch.zeros(num_steps, num_processes, 1)
        self.masks = torch.ones(num_steps + 1, num_processes, 1)


def collect(actor_critic, envs_step, storage, num_steps):
    episode_rewards = []
    for step in range(num_steps):
        with torch.no_grad():
            value, logits = actor_critic(storage.states[step])
        probs = F.softmax(logits, dim=0)  # expect: softmax-over-batch-dim
        actions = probs.multinomial(1).squeeze(1)
        storage.actions[step] = actions
        obs, reward, done = envs_step(actions.cpu().numpy())
        storage.states[step + 1] = torch.from_numpy(obs).float()
        storage.rewards[step] = torch.from_numpy(reward).float().unsqueeze(1)
        storage.masks[step + 1] = torch.from_numpy(1.0 - done).float().unsqueeze(1)
        episode_rewards.append(reward.mean())
    return float(np.mean(episode_rewards))


if __name__ == "__main__":
    num_processes, num_steps = 16, 5
    rng = np.random.default_rng(0)

    def fake_envs_step(actions):
        return (rng.standard_normal((num_processes, 8)), rng.standard_normal(num_processes),
                (rng.random(num_processes) < 0.05).astype(np.float64))

    policy = Policy()
    store = RolloutStorage(num_steps, num_processes, 8)
    print(collect(policy, fake_envs_step, store, num_steps))

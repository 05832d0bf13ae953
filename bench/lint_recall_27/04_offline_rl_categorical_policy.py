"""Discrete behaviour-cloning policy for offline RL (Atari-style observations)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class Encoder(nn.Module):
    def __init__(self, obs_dim, hidden=256):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.fc2 = nn.Linear(hidden, hidden)

    def forward(self, x):
        return F.relu(self.fc2(F.relu(self.fc1(x))))


class CategoricalPolicy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.encoder = Encoder(obs_dim)
        self.fc = nn.Linear(256, n_actions)

    def dist(self, x):
        h = self.encoder(x)
        h = self.fc(h)
        return Categorical(torch.softmax(h))  # expect: softmax-without-dim

    def forward(self, x, deterministic=False):
        dist = self.dist(x)
        if deterministic:
            return dist.probs.argmax(dim=1)
        return dist.sample()


class BCTrainer:
    def __init__(self, obs_dim, n_actions, lr=3e-4, device="cpu"):
        self.policy = CategoricalPolicy(obs_dim, n_actions).to(device)
        self.optim = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.device = device

    def update(self, obs, actions):
        obs = obs.to(self.device)
        actions = actions.to(self.device)
        dist = self.policy.dist(obs)
        loss = -dist.log_prob(actions).mean()
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        return loss.item()

    def fit(self, buffer, n_steps=10000, batch_size=256):
        for step in range(n_steps):
            obs, actions = buffer.sample(batch_size)
            loss = self.update(obs, actions)
            if step % 1000 == 0:
                print(f"step {step} bc loss {loss:.3f}")

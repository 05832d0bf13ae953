# Source: https://github.com/spragunr/deep_q_rl/issues/46
# Pitfall: the Q-learning loss clips the TD error to [-1, 1] and then squares it, so every
#   transition whose error exceeds the clip gets zero gradient (the Huber loss was intended).
# Reproduced in our own words, not the original code.
import random

import torch
import torch.nn as nn


class QNetwork(nn.Module):
    def __init__(self, n_actions):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(4, 32, 8, stride=4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(), nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Linear(64 * 7 * 7, 512), nn.ReLU(), nn.Linear(512, n_actions))

    def forward(self, x):
        return self.head(self.conv(x / 255.0))


class DQNAgent:
    def __init__(self, n_actions, gamma=0.99, clip_delta=1.0, lr=2.5e-4):
        self.q = QNetwork(n_actions)
        self.target_q = QNetwork(n_actions)
        self.target_q.load_state_dict(self.q.state_dict())
        self.gamma = gamma
        self.clip_delta = clip_delta
        self.n_actions = n_actions
        self.optimizer = torch.optim.RMSprop(self.q.parameters(), lr=lr, alpha=0.95, eps=0.01)

    def act(self, state, epsilon):
        if random.random() < epsilon:
            return random.randrange(self.n_actions)
        with torch.no_grad():
            return int(self.q(state.unsqueeze(0)).argmax(dim=1))

    def train_batch(self, states, actions, rewards, next_states, terminals):
        q_values = self.q(states).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            next_max = self.target_q(next_states).max(dim=1).values
            target = rewards + self.gamma * (1.0 - terminals) * next_max
        diff = target - q_values
        if self.clip_delta > 0:
            diff = diff.clamp(-self.clip_delta, self.clip_delta)  # expect: clamped-residual-loss
        loss = (0.5 * diff ** 2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def sync_target(self):
        self.target_q.load_state_dict(self.q.state_dict())

"""Gym DQN loop where a scorer picks actions from the current Q-network between updates."""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


def discrete_dqn_scorer(q_network):
    @torch.no_grad()
    def score(obs):
        q_network.eval()  # expect: train-mode-not-restored
        scores = q_network(obs)
        assert scores.dim() == 2, f"{scores.shape} isn't (batch_size, num_actions)."
        return scores

    return score


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, 128)
        self.drop = nn.Dropout(0.1)
        self.fc2 = nn.Linear(128, n_actions)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.fc1(x))))


def run_gym(env, q_network, target_network, replay, optimizer, steps=10000, gamma=0.99, eps=0.1, batch_size=64):
    scorer = discrete_dqn_scorer(q_network)
    target_network.eval()
    q_network.train()
    obs = env.reset()
    for step in range(steps):
        obs_t = torch.as_tensor(obs, dtype=torch.float32).unsqueeze(0)
        if random.random() < eps:
            action = env.action_space.sample()
        else:
            action = scorer(obs_t).argmax(dim=1).item()
        next_obs, reward, done, _ = env.step(action)
        replay.add(obs, action, reward, next_obs, done)
        obs = env.reset() if done else next_obs

        if len(replay) >= batch_size:
            s, a, r, s2, d = replay.sample(batch_size)
            with torch.no_grad():
                target = r + gamma * (1 - d) * target_network(s2).max(dim=1).values
            q = q_network(s).gather(1, a.unsqueeze(1)).squeeze(1)
            loss = F.smooth_l1_loss(q, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if step % 500 == 0:
            target_network.load_state_dict(q_network.state_dict())

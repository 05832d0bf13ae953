# Source: https://github.com/pytorch/examples/commit/6be19f9cbc2689e7e691f31c4594510714396ca3
# Pitfall: the policy-gradient update standardises the episode returns by dividing by their std with no
#   epsilon; an episode whose returns are all equal (or of length 1) gives 0/0 and NaN policy weights.
# Reproduced in our own words, not the original code.
import argparse

import gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self, n_obs=4, n_act=2):
        super().__init__()
        self.l1 = nn.Linear(n_obs, 128)
        self.drop = nn.Dropout(p=0.6)
        self.l2 = nn.Linear(128, n_act)

    def forward(self, x):
        return F.softmax(self.l2(F.relu(self.drop(self.l1(x)))), dim=1)


def end_episode(policy, optimizer, log_probs, rewards, gamma):
    returns, running = [], 0.0
    for r in reversed(rewards):
        running = r + gamma * running
        returns.insert(0, running)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / returns.std()  # expect: unguarded-zero
    loss = torch.stack([-lp * g for lp, g in zip(log_probs, returns)]).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--episodes", type=int, default=500)
    args = parser.parse_args()
    env = gym.make("CartPole-v1")
    policy = Policy()
    optimizer = optim.Adam(policy.parameters(), lr=1e-2)
    for episode in range(args.episodes):
        state, _ = env.reset()
        log_probs, rewards = [], []
        for t in range(10000):
            probs = policy(torch.from_numpy(np.asarray(state, dtype=np.float32)).unsqueeze(0))
            dist = Categorical(probs)
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            state, reward, terminated, truncated, _ = env.step(action.item())
            rewards.append(reward)
            if terminated or truncated:
                break
        end_episode(policy, optimizer, log_probs, rewards, args.gamma)


if __name__ == "__main__":
    main()

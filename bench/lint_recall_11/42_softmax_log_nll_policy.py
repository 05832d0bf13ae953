"""REINFORCE on a discrete-action gym environment with a small policy network."""
import gymnasium as gym
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import log


class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=128):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden)
        self.fc2 = nn.Linear(hidden, n_actions)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def run_episode(env, policy):
    obs, _ = env.reset()
    log_probs, rewards = [], []
    done = False
    while not done:
        logits = policy(torch.as_tensor(obs, dtype=torch.float32))
        probs = F.softmax(logits, dim=-1)
        action = torch.multinomial(probs, 1).item()
        log_probs.append(log(probs)[action])  # expect: log-of-softmax
        obs, reward, terminated, truncated, _ = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    return torch.stack(log_probs), rewards


def discounted_returns(rewards, gamma=0.99):
    returns, R = [], 0.0
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    return (returns - returns.mean()) / (returns.std() + 1e-8)


def train(episodes=500, lr=1e-2):
    env = gym.make("CartPole-v1")
    policy = Policy(env.observation_space.shape[0], env.action_space.n)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    for ep in range(episodes):
        log_probs, rewards = run_episode(env, policy)
        loss = -(log_probs * discounted_returns(rewards)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if ep % 50 == 0:
            print(f"episode {ep}: return {sum(rewards):.1f}")

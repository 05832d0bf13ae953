"""Style: REINFORCE policy gradient with a gym-like environment."""
import torch
from torch import nn
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, n_actions))

    def forward(self, obs):
        return torch.softmax(self.net(obs), dim=-1)


def run_episode(env, policy):
    obs, log_probs, rewards, done = env.reset(), [], [], False
    while not done:
        probs = policy(torch.as_tensor(obs, dtype=torch.float32))
        action = torch.multinomial(probs, 1).item()
        log_probs.append(torch.log(probs[action]))  # expect: log-of-softmax
        obs, reward, done, _ = env.step(action)
        rewards.append(reward)
    return log_probs, rewards


def train(env, episodes=1000, gamma=0.99):
    policy = Policy(4, 2)
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for ep in range(episodes):
        log_probs, rewards = run_episode(env, policy)
        returns, g = [], 0.0
        for r in reversed(rewards):
            g = r + gamma * g
            returns.insert(0, g)
        returns = torch.tensor(returns)
        returns = (returns - returns.mean()) / (returns.std() + 1e-9)
        loss = -(torch.stack(log_probs) * returns).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


def train_a2c(env, policy, steps):
    opt = torch.optim.Adam(policy.parameters(), lr=7e-4)
    obs = env.reset()
    for t in range(steps):
        dist = Categorical(logits=policy.net(torch.as_tensor(obs, dtype=torch.float32)))
        action = dist.sample()
        obs, reward, done, _ = env.step(action.item())
        loss = -dist.log_prob(action) * reward - 0.01 * dist.entropy()
        loss.backward()
        opt.step()  # expect: gradients-never-cleared
        if done:
            obs = env.reset()

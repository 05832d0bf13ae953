"""REINFORCE with a small actor-critic head on CartPole."""
import gymnasium as gym
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(4, 128)
        self.action_head = nn.Linear(128, 2)
        self.value_head = nn.Linear(128, 1)

    def forward(self, x):
        x = F.relu(self.affine1(x))
        action_scores = self.action_head(x)
        state_values = self.value_head(x)
        return F.softmax(action_scores), state_values  # expect: softmax-without-dim


def finish_episode(optimizer, saved, rewards, gamma=0.99):
    returns, R = [], 0.0
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    policy_losses, value_losses = [], []
    for (log_prob, value), R in zip(saved, returns):
        advantage = R - value.item()
        policy_losses.append(-log_prob * advantage)
        value_losses.append(F.smooth_l1_loss(value.squeeze(0), R))
    optimizer.zero_grad()
    loss = torch.stack(policy_losses).sum() + torch.stack(value_losses).sum()
    loss.backward()
    optimizer.step()


def main(episodes=500):
    env = gym.make("CartPole-v1")
    model = Policy()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-2)
    for _ in range(episodes):
        state, _ = env.reset()
        saved, rewards = [], []
        for _ in range(10000):
            probs, value = model(torch.from_numpy(state).float().unsqueeze(0))
            m = Categorical(probs)
            action = m.sample()
            saved.append((m.log_prob(action), value))
            state, reward, terminated, truncated, _ = env.step(action.item())
            rewards.append(reward)
            if terminated or truncated:
                break
        finish_episode(optimizer, saved, rewards)


if __name__ == "__main__":
    main()

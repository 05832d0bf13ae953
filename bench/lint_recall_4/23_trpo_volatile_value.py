# Source: https://github.com/ikostrikov/pytorch-trpo/issues/12
# Pitfall: the rollout code evaluates the value network on Variable(states, volatile=True),
#   relying on a flag that is deprecated and ignored in modern PyTorch, so autograd records it.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.autograd import Variable


class ValueNet(nn.Module):
    def __init__(self, obs_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


def compute_advantages(value_net, states, rewards, masks, gamma=0.995, tau=0.97):
    values = value_net(Variable(states, volatile=True))  # expect: volatile-variable
    returns = torch.zeros(rewards.size(0), 1)
    deltas = torch.zeros(rewards.size(0), 1)
    advantages = torch.zeros(rewards.size(0), 1)
    prev_return, prev_value, prev_advantage = 0.0, 0.0, 0.0
    for i in reversed(range(rewards.size(0))):
        returns[i] = rewards[i] + gamma * prev_return * masks[i]
        deltas[i] = rewards[i] + gamma * prev_value * masks[i] - values.data[i]
        advantages[i] = deltas[i] + gamma * tau * prev_advantage * masks[i]
        prev_return = returns[i, 0]
        prev_value = values.data[i, 0]
        prev_advantage = advantages[i, 0]
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    return returns, advantages


def fit_value(value_net, states, targets, iters=25):
    optimizer = torch.optim.LBFGS(value_net.parameters(), max_iter=iters)

    def closure():
        optimizer.zero_grad()
        loss = (value_net(states) - targets).pow(2).mean()
        loss.backward()
        return loss

    optimizer.step(closure)

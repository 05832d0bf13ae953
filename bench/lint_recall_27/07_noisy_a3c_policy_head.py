"""Actor-critic network with noisy linear layers for an A3C worker."""
import math
import torch
from torch import nn
from torch.nn import functional as F
from torch.distributions import Categorical


class NoisyLinear(nn.Module):
    def __init__(self, in_features, out_features, sigma_init=0.017):
        super().__init__()
        self.weight_mu = nn.Parameter(torch.empty(out_features, in_features))
        self.weight_sigma = nn.Parameter(torch.full((out_features, in_features), sigma_init))
        self.bias_mu = nn.Parameter(torch.empty(out_features))
        self.bias_sigma = nn.Parameter(torch.full((out_features,), sigma_init))
        bound = 1 / math.sqrt(in_features)
        nn.init.uniform_(self.weight_mu, -bound, bound)
        nn.init.uniform_(self.bias_mu, -bound, bound)

    def forward(self, x):
        if self.training:
            w = self.weight_mu + self.weight_sigma * torch.randn_like(self.weight_sigma)
            b = self.bias_mu + self.bias_sigma * torch.randn_like(self.bias_sigma)
        else:
            w, b = self.weight_mu, self.bias_mu
        return F.linear(x, w, b)


class ActorCritic(nn.Module):
    def __init__(self, observation_size, action_size, hidden_size=32):
        super().__init__()
        self.fc1 = nn.Linear(observation_size, hidden_size)
        self.lstm = nn.LSTMCell(hidden_size, hidden_size)
        self.fc_actor = NoisyLinear(hidden_size, action_size)
        self.fc_critic = NoisyLinear(hidden_size, 1)
        self.softmax = nn.Softmax()  # expect: softmax-without-dim

    def forward(self, x, h):
        x = F.relu(self.fc1(x))
        h = self.lstm(x, h)
        x = h[0]
        policy = self.softmax(self.fc_actor(x)).clamp(max=1 - 1e-20)
        value = self.fc_critic(x)
        return policy, value, h


def worker_loss(model, states, actions, returns, hx, cx, beta=0.01):
    policy_loss, value_loss = 0.0, 0.0
    for s, a, ret in zip(states, actions, returns):
        policy, value, (hx, cx) = model(s, (hx, cx))
        dist = Categorical(probs=policy)
        advantage = ret - value.squeeze(1)
        value_loss = value_loss + 0.5 * advantage.pow(2).mean()
        policy_loss = policy_loss - (dist.log_prob(a) * advantage.detach()).mean() - beta * dist.entropy().mean()
    return policy_loss + value_loss

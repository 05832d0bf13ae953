"""Synchronous advantage actor-critic (A2C) network and loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCriticNet(nn.Module):
    def __init__(self, state_dim, action_dim, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(state_dim, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.fc_actor = nn.Linear(hidden, action_dim)
        self.fc_critic = nn.Linear(hidden, 1)

    def forward(self, x):
        phi = self.body(x)
        pre_prob = self.fc_actor(phi)
        prob = F.softmax(pre_prob)  # expect: softmax-without-dim
        log_prob = F.log_softmax(pre_prob, dim=1)
        value = self.fc_critic(phi)
        return prob, log_prob, value


def a2c_loss(net, states, actions, returns, entropy_weight=0.01, value_weight=0.5):
    prob, log_prob, value = net(states)
    log_pi_a = log_prob.gather(1, actions.unsqueeze(1)).squeeze(1)
    advantages = returns - value.squeeze(1).detach()
    policy_loss = -(log_pi_a * advantages).mean()
    entropy = -(prob * log_prob).sum(dim=1).mean()
    value_loss = F.mse_loss(value.squeeze(1), returns)
    return policy_loss - entropy_weight * entropy + value_weight * value_loss


def update(net, optimizer, rollout, max_grad_norm=0.5):
    loss = a2c_loss(net, rollout["states"], rollout["actions"], rollout["returns"])
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), max_grad_norm)
    optimizer.step()
    return loss.item()

"""ACER actor-critic: LSTM policy head and the entropy-regularised policy loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorCritic(nn.Module):
    def __init__(self, observation_size, action_size, hidden_size):
        super().__init__()
        self.fc1 = nn.Linear(observation_size, hidden_size)
        self.lstm = nn.LSTMCell(hidden_size, hidden_size)
        self.fc_actor = nn.Linear(hidden_size, action_size)
        self.fc_critic = nn.Linear(hidden_size, action_size)

    def forward(self, x, h):
        x = F.relu(self.fc1(x))
        h = self.lstm(x, h)
        x = h[0]
        policy = F.softmax(self.fc_actor(x), dim=1)
        Q = self.fc_critic(x)
        V = (Q * policy).sum(1, keepdim=True)
        return policy, Q, V, h


def policy_loss_terms(policies, actions, Qs, Vs, Qret, entropy_weight):
    policy_loss = 0.0
    for i in reversed(range(len(policies))):
        log_pi = policies[i].log()  # expect: log-of-softmax
        advantage = Qret[i] - Vs[i]
        policy_loss = policy_loss - (log_pi.gather(1, actions[i]) * advantage.detach()).mean()
        entropy = -(log_pi * policies[i]).sum(1).mean(0)
        policy_loss = policy_loss - entropy_weight * entropy
    return policy_loss


def update(model, optimizer, trajectory, entropy_weight=1e-4, max_grad_norm=40.0):
    policies, actions, Qs, Vs, Qret = trajectory
    optimizer.zero_grad()
    value_loss = sum(((Qret[i] - Qs[i].gather(1, actions[i])) ** 2).mean() / 2
                     for i in range(len(Qs)))
    loss = policy_loss_terms(policies, actions, Qs, Vs, Qret, entropy_weight) + value_loss
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    optimizer.step()
    return loss.item()

"""SAC critic update for a continuous-control walker."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], dim=1))


def critic_update(critic_1, target_critic_1, actor, critic_opt, batch, alpha=0.2, gamma=0.99):
    states, actions, rewards, next_states, dones = batch
    with torch.no_grad():
        next_actions, next_log_prob = actor.sample(next_states)
        next_q = target_critic_1(next_states, next_actions).squeeze(1)
        td_target = rewards + gamma * (1 - dones) * (next_q - alpha * next_log_prob)
    q_pred = critic_1(states, actions)
    critic_loss = F.mse_loss(q_pred, td_target)  # expect: loss-shape-broadcast
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()
    return critic_loss.item()

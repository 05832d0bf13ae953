"""REINFORCE with a value baseline on a small grid world; dropout on the scores for exploration."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DROP_MAX, DROP_MIN, DROP_OVER = 0.3, 0.05, 200


class Policy(nn.Module):
    def __init__(self, n_obs, n_actions, hidden=64):
        super().__init__()
        self.body = nn.Linear(n_obs, hidden)
        self.action_head = nn.Linear(hidden, n_actions)
        self.value_head = nn.Linear(hidden, 1)

    def forward(self, x):
        h = F.relu(self.body(x))
        return self.action_head(h), self.value_head(h)


def interpolate(e, hi, lo, over):
    return lo + (hi - lo) * max(0.0, 1.0 - e / over)


def select_action(policy, e, state):
    drop = interpolate(e, DROP_MAX, DROP_MIN, DROP_OVER)
    state = torch.from_numpy(state).float().unsqueeze(0)
    scores, value = policy(state)
    scores = scores / (1.0 + drop)
    probs = F.softmax(scores)  # expect: softmax-without-dim
    action = torch.multinomial(probs, 1)
    log_prob = F.log_softmax(scores, dim=-1).gather(1, action)
    return action.item(), log_prob, value


def finish_episode(optimizer, log_probs, values, rewards, gamma=0.9):
    R, returns = 0.0, []
    for r in reversed(rewards):
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns, dtype=torch.float32)
    values = torch.cat(values).squeeze(-1)
    log_probs = torch.cat(log_probs).squeeze(-1)
    advantage = returns - values.detach()
    loss = -(log_probs * advantage).sum() + F.smooth_l1_loss(values, returns)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return float(np.sum(rewards))

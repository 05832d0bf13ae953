"""Discrete-action SAC: policy network and environment interaction."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical


class PolicyNetwork(nn.Module):
    def __init__(self, state_dim, num_actions, hidden_size=64):
        super().__init__()
        self.linear1 = nn.Linear(state_dim, hidden_size)
        self.linear2 = nn.Linear(hidden_size, hidden_size)
        self.output = nn.Linear(hidden_size, num_actions)

    def logits(self, state):
        x = torch.tanh(self.linear1(state))
        x = torch.tanh(self.linear2(x))
        return self.output(x)

    def get_action(self, state, deterministic, device):
        state = torch.as_tensor(np.asarray(state), dtype=torch.float32, device=device).unsqueeze(0)
        with torch.no_grad():
            probs = F.softmax(self.logits(state), dim=0)  # expect: softmax-over-batch-dim
        dist = Categorical(probs)
        if deterministic:
            return int(probs.argmax(dim=-1).item())
        return int(dist.sample().item())


def rollout(env, policy, device, max_steps=200):
    state = env.reset()
    episode_reward = 0.0
    transitions = []
    for _ in range(max_steps):
        action = policy.get_action(state, deterministic=False, device=device)
        next_state, reward, done, _ = env.step(action)
        transitions.append((state, action, reward, next_state, done))
        episode_reward += reward
        state = next_state
        if done:
            break
    return transitions, episode_reward

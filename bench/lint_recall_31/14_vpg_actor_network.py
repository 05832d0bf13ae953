"""Vanilla policy gradient (REINFORCE) on a discrete-action environment."""
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F


class VanillaActorNetwork(nn.Module):
    def __init__(self, input_dim: int, hidden_dims: List[int], output_dim: int):
        super().__init__()
        self.fc1 = nn.Linear(input_dim, hidden_dims[0])
        hiddens = []
        for i in range(len(hidden_dims) - 1):
            hiddens += [nn.Linear(hidden_dims[i], hidden_dims[i + 1]), nn.ReLU()]
        self.hiddens = nn.Sequential(*hiddens)
        self.fc2 = nn.Linear(hidden_dims[-1], output_dim)

    def forward(self, x):
        value = F.relu(self.fc1(x))
        value = self.hiddens(value)
        return F.softmax(self.fc2(value))  # expect: softmax-without-dim


class PolicyGradient:
    def __init__(self, state_dim, action_count, hidden_dims=(64, 64), lr=1e-3, gamma=0.99):
        self.actor = VanillaActorNetwork(state_dim, list(hidden_dims), action_count)
        self.optimizer = torch.optim.AdamW(self.actor.parameters(), lr=lr, amsgrad=True)
        self.gamma = gamma

    def act(self, state):
        with torch.no_grad():
            probs = self.actor(state.unsqueeze(0))
        return torch.distributions.Categorical(probs=probs).sample().item()

    def returns(self, rewards):
        out, running = [], 0.0
        for r in reversed(rewards):
            running = r + self.gamma * running
            out.append(running)
        return torch.tensor(out[::-1])

    def learn_episode(self, states, actions, rewards):
        state_batch = torch.stack(states)
        action_batch = torch.tensor(actions)
        return_batch = self.returns(rewards)
        dist = torch.distributions.Categorical(probs=self.actor(state_batch))
        loss = -(dist.log_prob(action_batch) * return_batch).sum()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"loss": loss.item()}


if __name__ == "__main__":
    agent = PolicyGradient(state_dim=4, action_count=2)
    states = [torch.randn(4) for _ in range(20)]
    actions = [agent.act(s) for s in states]
    print(agent.learn_episode(states, actions, [1.0] * 20))

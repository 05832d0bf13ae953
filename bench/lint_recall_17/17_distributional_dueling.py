"""Distributional (C51) dueling Q-network with per-action return distributions."""
import torch
from torch import nn
import torch.nn.functional as F


class DQN(nn.Module):
    def __init__(self, in_channels, action_space, atoms=51, hidden=512):
        super().__init__()
        self.action_space = action_space
        self.atoms = atoms
        self.conv = nn.Sequential(
            nn.Conv2d(in_channels, 32, 8, stride=4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(),
        )
        self.fc_h_v = nn.Linear(3136, hidden)
        self.fc_h_a = nn.Linear(3136, hidden)
        self.fc_z_v = nn.Linear(hidden, atoms)
        self.fc_z_a = nn.Linear(hidden, action_space * atoms)

    def forward(self, x):
        x = self.conv(x).view(x.size(0), -1)
        v = self.fc_z_v(F.relu(self.fc_h_v(x)))
        a = self.fc_z_a(F.relu(self.fc_h_a(x)))
        a_chunks = torch.stack(a.chunk(self.action_space, 1), 1)
        a_mean = a_chunks.mean(1)
        x = v.repeat(1, self.action_space) + a - a_mean.repeat(1, self.action_space)
        p = torch.stack([F.softmax(p) for p in x.chunk(self.action_space, 1)], 1)  # expect: softmax-without-dim
        return p.clamp(min=1e-8, max=1 - 1e-8)


def act(net, state, support):
    with torch.no_grad():
        return (net(state.unsqueeze(0)) * support).sum(2).argmax(1).item()


def expected_q(net, states, support):
    with torch.no_grad():
        return (net(states) * support).sum(2)

# Source: https://github.com/Toni-SM/skrl/pull/197
# Pitfall: the agent's load() restores a checkpoint with a bare torch.load, which unpickles arbitrary
# objects (code execution from an untrusted file) instead of loading tensors with weights_only=True.
# Reproduced in our own words, not the original code.
import os

import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self, obs_dim=8, act_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, act_dim))
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def forward(self, obs):
        return self.net(obs), self.log_std.exp()


class Agent:
    def __init__(self, device="cpu"):
        self.device = torch.device(device)
        self.policy = Policy().to(self.device)
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=3e-4)
        self.checkpoint_modules = {"policy": self.policy, "optimizer": self.optimizer}

    def save(self, path):
        torch.save({name: module.state_dict() for name, module in self.checkpoint_modules.items()}, path)

    def load(self, path):
        modules = torch.load(path, map_location=self.device)  # expect: torch-load-unsafe
        for name, data in modules.items():
            module = self.checkpoint_modules.get(name)
            if module is not None:
                module.load_state_dict(data)

    def act(self, obs):
        with torch.no_grad():
            mean, std = self.policy(obs.to(self.device))
        return mean + std * torch.randn_like(mean)


if __name__ == "__main__":
    agent = Agent()
    path = os.path.join("/tmp", "agent_ckpt.pt")
    agent.save(path)
    fresh = Agent()
    fresh.load(path)
    print(fresh.act(torch.randn(4, 8)).shape)

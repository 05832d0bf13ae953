# Source: https://github.com/Linesight-RL/linesight/issues/50
# Pitfall: resuming an RL run restores the online/target networks and optimizer with bare torch.load
# calls; without weights_only=True a shared or downloaded checkpoint is unpickled with full code execution.
# Reproduced in our own words, not the original code.
from pathlib import Path

import torch
import torch.nn as nn


class IQNHead(nn.Module):
    def __init__(self, obs_dim=32, n_actions=12, hidden=256):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.LeakyReLU(), nn.Linear(hidden, hidden), nn.LeakyReLU())
        self.out = nn.Linear(hidden, n_actions)

    def forward(self, obs):
        return self.out(self.body(obs))


def make_agent(device):
    online = IQNHead().to(device)
    target = IQNHead().to(device)
    target.load_state_dict(online.state_dict())
    optimizer = torch.optim.RAdam(online.parameters(), lr=5e-5, eps=1e-4)
    return online, target, optimizer


def resume(save_dir, online, target, optimizer, device):
    save_dir = Path(save_dir)
    if not (save_dir / "weights1.torch").exists():
        print("Starting from scratch")
        return
    online.load_state_dict(torch.load(save_dir / "weights1.torch", map_location=device))  # expect: torch-load-unsafe
    target.load_state_dict(torch.load(save_dir / "weights2.torch", map_location=device, weights_only=True))
    optimizer.load_state_dict(torch.load(save_dir / "optimizer1.torch", map_location=device, weights_only=True))
    print("Weights loaded")


def save(save_dir, online, target, optimizer):
    save_dir = Path(save_dir)
    save_dir.mkdir(parents=True, exist_ok=True)
    torch.save(online.state_dict(), save_dir / "weights1.torch")
    torch.save(target.state_dict(), save_dir / "weights2.torch")
    torch.save(optimizer.state_dict(), save_dir / "optimizer1.torch")


if __name__ == "__main__":
    dev = torch.device("cpu")
    online, target, optimizer = make_agent(dev)
    save("/tmp/tm_run", online, target, optimizer)
    online2, target2, optimizer2 = make_agent(dev)
    resume("/tmp/tm_run", online2, target2, optimizer2, dev)

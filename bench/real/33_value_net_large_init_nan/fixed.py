"""Fixed version of 33_value_net_large_init_nan/buggy.py (the source and the report are in its docstring).

Fix: orthogonal weight initialisation and zero biases.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

obs_dim = 24
critic = nn.Sequential(nn.Linear(obs_dim, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1))


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.orthogonal_(m.weight)
        nn.init.zeros_(m.bias)


critic.apply(init_weights)
opt = torch.optim.Adam(critic.parameters(), lr=3e-4)
gamma = 0.99
losses = []
for step in range(200):
    obs = torch.randn(64, obs_dim)
    next_obs = obs + 0.1 * torch.randn(64, obs_dim)
    reward = obs[:, :3].sum(1, keepdim=True)
    with torch.no_grad():
        target = reward + gamma * critic(next_obs)
    loss = ((critic(obs) - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")

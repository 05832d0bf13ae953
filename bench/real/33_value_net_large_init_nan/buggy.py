"""RL value/policy network with a wide uniform weight initialisation: NaNs early in training.

Source: https://github.com/EmbarkStudios/emote/issues/20
Report: NaNs during training; "after applying orthogonal weight initialisation and setting bias
to a constant 0, we no longer get NaNs with lower learning rates". Reproduced with a critic that
regresses returns (TD targets computed from its own output) with weights drawn from U(-1, 1).

expect: bad-init
symptom: final-loss-ratio 5
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
        nn.init.uniform_(m.weight, -1.0, 1.0)
        nn.init.uniform_(m.bias, -1.0, 1.0)


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

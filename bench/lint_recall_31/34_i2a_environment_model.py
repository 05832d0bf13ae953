"""Imagination-augmented agents: train the environment model (next observation + reward)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

OBS_WEIGHT, REWARD_WEIGHT, N_ACTIONS = 10.0, 1.0, 4


class EnvironmentModel(nn.Module):
    def __init__(self, in_ch=2, n_actions=N_ACTIONS):
        super().__init__()
        self.n_actions = n_actions
        self.conv1 = nn.Sequential(nn.Conv2d(in_ch + n_actions, 64, 4, 4), nn.ReLU(), nn.Conv2d(64, 64, 3, padding=1), nn.ReLU())
        self.conv2 = nn.Sequential(nn.Conv2d(64, 64, 3, padding=1), nn.ReLU())
        self.deconv = nn.ConvTranspose2d(64, 1, 4, 4)
        self.reward_conv = nn.Sequential(nn.Conv2d(64, 64, 3), nn.MaxPool2d(2), nn.ReLU(), nn.Flatten())
        self.reward_fc = nn.Sequential(nn.LazyLinear(128), nn.ReLU(), nn.Linear(128, 1))

    def forward(self, imgs, actions):
        b, _, h, w = imgs.size()
        act_planes = torch.zeros(b, self.n_actions, h, w, device=imgs.device)
        act_planes[range(b), actions] = 1.0
        c1 = self.conv1(torch.cat([imgs, act_planes], dim=1))
        c2 = self.conv2(c1) + c1
        return self.deconv(c2), self.reward_fc(self.reward_conv(c2))


def train_em_step(net_em, optimizer, mb_obs, mb_obs_next, mb_actions, mb_rewards, device):
    obs_v = torch.tensor(mb_obs, dtype=torch.float32, device=device)
    obs_next_v = torch.tensor(mb_obs_next, dtype=torch.float32, device=device)
    actions_t = torch.tensor(mb_actions, dtype=torch.long, device=device)
    rewards_v = torch.tensor(mb_rewards, dtype=torch.float32, device=device)

    optimizer.zero_grad()
    out_obs_next_v, out_reward_v = net_em(obs_v / 255, actions_t)
    loss_obs_v = F.mse_loss(out_obs_next_v.squeeze(1), obs_next_v)
    loss_rew_v = F.mse_loss(out_reward_v, rewards_v)  # expect: loss-shape-broadcast
    loss_total_v = OBS_WEIGHT * loss_obs_v + REWARD_WEIGHT * loss_rew_v
    loss_total_v.backward()
    optimizer.step()
    return loss_obs_v.item(), loss_rew_v.item()


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    em = EnvironmentModel().to(dev)
    em(torch.zeros(1, 2, 84, 84, device=dev), torch.zeros(1, dtype=torch.long, device=dev))
    opt = torch.optim.Adam(em.parameters(), lr=5e-4)
    for step in range(5):
        obs = np.random.randint(0, 255, (32, 2, 84, 84))
        nxt = np.random.rand(32, 84, 84)
        print(step, train_em_step(em, opt, obs, nxt, np.random.randint(0, N_ACTIONS, 32), np.random.randn(32), dev))

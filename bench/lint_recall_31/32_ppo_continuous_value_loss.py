"""PPO for continuous control: GAE advantages and clipped policy / value updates."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

GAMMA, GAE_LAMBDA, PPO_EPS, PPO_EPOCHES, PPO_BATCH = 0.99, 0.95, 0.2, 10, 64


class ModelActor(nn.Module):
    def __init__(self, obs_size, act_size, hid=64):
        super().__init__()
        self.mu = nn.Sequential(nn.Linear(obs_size, hid), nn.Tanh(), nn.Linear(hid, hid), nn.Tanh(), nn.Linear(hid, act_size), nn.Tanh())
        self.logstd = nn.Parameter(torch.zeros(act_size))

    def forward(self, x):
        return self.mu(x)


class ModelCritic(nn.Module):
    def __init__(self, obs_size, hid=64):
        super().__init__()
        self.value = nn.Sequential(nn.Linear(obs_size, hid), nn.ReLU(), nn.Linear(hid, hid), nn.ReLU(), nn.Linear(hid, 1))

    def forward(self, x):
        return self.value(x)


def calc_logprob(mu_v, logstd_v, actions_v):
    p1 = -((mu_v - actions_v) ** 2) / (2 * torch.exp(logstd_v) ** 2)
    p2 = -logstd_v - math.log(math.sqrt(2 * math.pi))
    return p1 + p2


def calc_adv_ref(rewards, dones, values_v):
    values = values_v.squeeze(-1).tolist()
    last_gae, adv, ref = 0.0, [], []
    for val, next_val, r, done in zip(reversed(values[:-1]), reversed(values[1:]), reversed(rewards[:-1]), reversed(dones[:-1])):
        delta = r - val if done else r + GAMMA * next_val - val
        last_gae = delta if done else delta + GAMMA * GAE_LAMBDA * last_gae
        adv.append(last_gae)
        ref.append(last_gae + val)
    return torch.tensor(list(reversed(adv))), torch.tensor(list(reversed(ref)))


def ppo_update(net_act, net_crt, opt_act, opt_crt, states_v, actions_v, rewards, dones):
    with torch.no_grad():
        traj_adv_v, traj_ref_v = calc_adv_ref(rewards, dones, net_crt(states_v))
        old_logprob_v = calc_logprob(net_act(states_v), net_act.logstd, actions_v)[:-1]
    traj_adv_v = (traj_adv_v - traj_adv_v.mean()) / (traj_adv_v.std() + 1e-8)
    states_v, actions_v = states_v[:-1], actions_v[:-1]
    for _ in range(PPO_EPOCHES):
        for start in range(0, len(states_v), PPO_BATCH):
            s = slice(start, start + PPO_BATCH)
            opt_crt.zero_grad()
            value_v = net_crt(states_v[s])
            loss_value_v = F.mse_loss(value_v, traj_ref_v[s])  # expect: loss-shape-broadcast
            loss_value_v.backward()
            opt_crt.step()

            opt_act.zero_grad()
            logprob_pi_v = calc_logprob(net_act(states_v[s]), net_act.logstd, actions_v[s])
            ratio_v = torch.exp(logprob_pi_v - old_logprob_v[s]).mean(dim=1)
            surr_v = traj_adv_v[s] * ratio_v
            clipped_v = traj_adv_v[s] * torch.clamp(ratio_v, 1.0 - PPO_EPS, 1.0 + PPO_EPS)
            loss_policy_v = -torch.min(surr_v, clipped_v).mean()
            loss_policy_v.backward()
            opt_act.step()
    return loss_value_v.item(), loss_policy_v.item()


if __name__ == "__main__":
    act, crt = ModelActor(11, 3), ModelCritic(11)
    oa, oc = torch.optim.Adam(act.parameters(), lr=1e-4), torch.optim.Adam(crt.parameters(), lr=1e-3)
    T = 2049
    print(ppo_update(act, crt, oa, oc, torch.randn(T, 11), torch.rand(T, 3) * 2 - 1, [1.0] * T, [False] * T))

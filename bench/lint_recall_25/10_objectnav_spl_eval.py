"""ObjectNav agent: PPO-trained recurrent policy; episodic evaluation of success and SPL."""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


class RecurrentPolicy(nn.Module):
    def __init__(self, obs_dim=64, hidden=128, n_actions=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.rnn = nn.GRUCell(hidden, hidden)
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, obs, h):
        h = self.rnn(self.enc(obs), h)
        return Categorical(logits=self.actor(h)), self.critic(h).squeeze(-1), h


class ToyNavEnv:
    def __init__(self, obs_dim=64, max_steps=100):
        self.obs_dim = obs_dim
        self.max_steps = max_steps

    def reset(self):
        self.t = 0
        self.geodesic = float(np.random.uniform(2.0, 10.0))
        return torch.randn(self.obs_dim)

    def step(self, action):
        self.t += 1
        done = action == 0 or self.t >= self.max_steps
        success = bool(action == 0 and np.random.rand() < 0.3)
        return torch.randn(self.obs_dim), done, {"success": success, "path_length": 0.25 * self.t,
                                                 "geodesic": self.geodesic}


def spl(success, geodesic, path_length):
    return float(success) * geodesic / max(path_length, geodesic)


@torch.no_grad()
def evaluate(policy, env, episodes=50):
    policy.eval()
    first_found_spl = float("nan")
    stats = {"success": [], "spl": []}
    for ep in range(episodes):
        obs, h, done = env.reset(), torch.zeros(1, 128), False
        info = {}
        while not done:
            dist, _, h = policy(obs.unsqueeze(0), h)
            obs, done, info = env.step(int(dist.probs.argmax(dim=-1)))
        ep_spl = spl(info["success"], info["geodesic"], info["path_length"])
        if info["success"] and first_found_spl == float("nan"):  # expect: nan-equality-check
            first_found_spl = ep_spl
        stats["success"].append(float(info["success"]))
        stats["spl"].append(ep_spl)
    policy.train()
    return {k: float(np.mean(v)) for k, v in stats.items()}, first_found_spl


if __name__ == "__main__":
    agent = RecurrentPolicy()
    print(evaluate(agent, ToyNavEnv()))

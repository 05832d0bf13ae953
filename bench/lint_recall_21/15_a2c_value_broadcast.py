"""Synchronous advantage actor-critic (A2C) update over a collected batch of transitions."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ActorNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return torch.distributions.Categorical(logits=self.net(obs))


class CriticNet(nn.Module):
    def __init__(self, obs_dim, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs):
        return self.net(obs)


class A2CPolicy:
    def __init__(self, actor, critic, optim, vf_coef=0.5, ent_coef=0.01, max_grad_norm=0.5):
        self.actor, self.critic, self.optim = actor, critic, optim
        self._w_vf, self._w_ent, self._grad_norm = vf_coef, ent_coef, max_grad_norm

    def learn(self, batch, batch_size, repeat=1):
        losses = []
        n = len(batch["obs"])
        for _ in range(repeat):
            for start in range(0, n, batch_size):
                idx = slice(start, start + batch_size)
                obs = torch.as_tensor(batch["obs"][idx], dtype=torch.float32)
                act = torch.as_tensor(batch["act"][idx])
                returns = torch.as_tensor(batch["returns"][idx], dtype=torch.float32)
                self.optim.zero_grad()
                dist = self.actor(obs)
                v = self.critic(obs)
                a_loss = -(dist.log_prob(act) * (returns - v.squeeze(-1)).detach()).mean()
                vf_loss = F.mse_loss(v, returns)  # expect: loss-shape-broadcast
                ent_loss = dist.entropy().mean()
                loss = a_loss + self._w_vf * vf_loss - self._w_ent * ent_loss
                loss.backward()
                nn.utils.clip_grad_norm_(
                    list(self.actor.parameters()) + list(self.critic.parameters()), self._grad_norm)
                self.optim.step()
                losses.append(loss.item())
        return {"loss": float(np.mean(losses))}


if __name__ == "__main__":
    actor, critic = ActorNet(4, 2), CriticNet(4)
    optim = torch.optim.Adam(list(actor.parameters()) + list(critic.parameters()), lr=7e-4)
    policy = A2CPolicy(actor, critic, optim)
    data = {
        "obs": np.random.randn(256, 4).astype(np.float32),
        "act": np.random.randint(0, 2, size=256),
        "returns": np.random.randn(256).astype(np.float32),
    }
    print(policy.learn(data, batch_size=64))

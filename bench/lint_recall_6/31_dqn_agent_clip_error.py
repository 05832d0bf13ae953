# Source: https://github.com/carpedm20/deep-rl-tensorflow/issues/5
# Pitfall: the agents clip the Bellman error and square it, believing this equals the paper's error clipping;
#   the clipped region has zero gradient, so large errors stop teaching the network. Ported to PyTorch here.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class DuelingHead(nn.Module):
    def __init__(self, d=256, n_actions=4):
        super().__init__()
        self.value = nn.Linear(d, 1)
        self.adv = nn.Linear(d, n_actions)

    def forward(self, h):
        adv = self.adv(h)
        return self.value(h) + adv - adv.mean(dim=1, keepdim=True)


class Agent:
    def __init__(self, encoder, head, lr=2.5e-4, gamma=0.99):
        self.encoder, self.head = encoder, head
        self.gamma = gamma
        self.optim = torch.optim.RMSprop(list(encoder.parameters()) + list(head.parameters()), lr=lr)

    def q_values(self, obs):
        return self.head(self.encoder(obs))

    def td_loss(self, obs, actions, rewards, next_obs, terminal):
        with torch.no_grad():
            best_next = self.q_values(next_obs).max(dim=1).values
            target = rewards + self.gamma * best_next * (1 - terminal)
        chosen = self.q_values(obs).gather(1, actions[:, None]).squeeze(1)
        err = (target - chosen).clamp(-1.0, 1.0)
        return err.pow(2).mean()  # expect: clamped-residual-loss

    def observe(self, batch):
        self.optim.zero_grad()
        loss = self.td_loss(*batch)
        loss.backward()
        self.optim.step()
        return loss.item()

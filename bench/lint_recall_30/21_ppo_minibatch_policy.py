"""Minimal PPO on CartPole: the policy head is shared by acting and batched updates."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

gamma, lmbda, eps_clip, K_epoch = 0.98, 0.95, 0.1, 3


class PPO(nn.Module):
    def __init__(self):
        super().__init__()
        self.data = []
        self.fc1 = nn.Linear(4, 256)
        self.fc_pi = nn.Linear(256, 2)
        self.fc_v = nn.Linear(256, 1)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=5e-4)

    def pi(self, x):
        x = F.relu(self.fc1(x))
        return F.softmax(self.fc_pi(x), dim=0)

    def v(self, x):
        return self.fc_v(F.relu(self.fc1(x)))

    def act(self, state):
        prob = self.pi(torch.from_numpy(state).float())
        return Categorical(prob).sample().item(), prob

    def train_net(self, s, a, r, s_prime, done_mask, prob_a):
        for _ in range(K_epoch):
            td_target = r + gamma * self.v(s_prime) * done_mask
            delta = (td_target - self.v(s)).detach()
            advantage_lst, adv = [], 0.0
            for d in reversed(delta.squeeze(1).tolist()):
                adv = gamma * lmbda * adv + d
                advantage_lst.insert(0, [adv])
            advantage = torch.tensor(advantage_lst, dtype=torch.float)
            pi = self.pi(s)  # expect: softmax-over-batch-dim
            pi_a = pi.gather(1, a)
            ratio = pi_a / prob_a
            surr1 = ratio * advantage
            surr2 = torch.clamp(ratio, 1 - eps_clip, 1 + eps_clip) * advantage
            loss = -torch.min(surr1, surr2) + F.smooth_l1_loss(self.v(s), td_target.detach())
            self.optimizer.zero_grad()
            loss.mean().backward()
            self.optimizer.step()

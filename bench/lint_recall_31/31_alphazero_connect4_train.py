"""AlphaZero-style training step for a Connect-4 policy/value network on self-play replay data."""
import collections
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROWS, COLS, BATCH = 6, 7, 256


class Net(nn.Module):
    def __init__(self, n_actions=COLS, filters=64):
        super().__init__()
        self.conv_in = nn.Sequential(nn.Conv2d(2, filters, 3, padding=1), nn.BatchNorm2d(filters), nn.LeakyReLU())
        self.res = nn.Sequential(*[nn.Sequential(nn.Conv2d(filters, filters, 3, padding=1), nn.BatchNorm2d(filters), nn.LeakyReLU()) for _ in range(4)])
        self.value = nn.Sequential(nn.Conv2d(filters, 1, 1), nn.Flatten(), nn.Linear(ROWS * COLS, 20), nn.LeakyReLU(), nn.Linear(20, 1), nn.Tanh())
        self.policy = nn.Sequential(nn.Conv2d(filters, 2, 1), nn.Flatten(), nn.Linear(2 * ROWS * COLS, n_actions))

    def forward(self, x):
        h = self.conv_in(x)
        h = h + self.res(h)
        return self.policy(h), self.value(h)


def train_step(net, optimizer, replay_buffer, device):
    batch = random.sample(replay_buffer, BATCH)
    batch_states, batch_probs, batch_values = zip(*batch)
    states_v = torch.tensor(np.array(batch_states), dtype=torch.float32, device=device)
    probs_v = torch.tensor(np.array(batch_probs), dtype=torch.float32, device=device)
    values_v = torch.tensor(batch_values, dtype=torch.float32, device=device)

    optimizer.zero_grad()
    out_logits_v, out_values_v = net(states_v)
    loss_value_v = F.mse_loss(out_values_v, values_v)  # expect: loss-shape-broadcast
    loss_policy_v = -F.log_softmax(out_logits_v, dim=1) * probs_v
    loss_policy_v = loss_policy_v.sum(dim=1).mean()
    loss_v = loss_policy_v + loss_value_v
    loss_v.backward()
    optimizer.step()
    return loss_policy_v.item(), loss_value_v.item()


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = Net().to(dev)
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    buffer = collections.deque(maxlen=30000)
    for _ in range(2000):
        probs = np.random.dirichlet(np.ones(COLS))
        buffer.append((np.random.randint(0, 2, (2, ROWS, COLS)), probs, float(np.random.choice([-1, 0, 1]))))
    net.train()
    for step in range(10):
        print(step, train_step(net, opt, list(buffer), dev))

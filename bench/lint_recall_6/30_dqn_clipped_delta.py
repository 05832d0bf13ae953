# Source: https://github.com/devsisters/DQN-tensorflow/issues/16
# Pitfall: the TD error is clipped to [-1, 1] and then squared; outside the range the clip has zero gradient,
#   so the transitions with the largest errors contribute nothing (Huber loss was intended). Ported to PyTorch here.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class QNet(nn.Module):
    def __init__(self, n_actions=6):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(4, 32, 8, 4), nn.ReLU(), nn.Conv2d(32, 64, 4, 2), nn.ReLU(),
                                  nn.Conv2d(64, 64, 3, 1), nn.ReLU(), nn.Flatten())
        self.fc = nn.Sequential(nn.Linear(3136, 512), nn.ReLU(), nn.Linear(512, n_actions))

    def forward(self, frames):
        return self.fc(self.conv(frames / 255.0))


def q_learning_minibatch(q_net, target_net, optimizer, batch, gamma=0.99, min_delta=-1.0, max_delta=1.0):
    s, a, r, s2, done = batch
    with torch.no_grad():
        max_q_next = target_net(s2).max(dim=1)[0]
        target_q_t = r + gamma * (1.0 - done) * max_q_next
    q_acted = q_net(s).gather(1, a.unsqueeze(1)).squeeze(1)
    delta = target_q_t - q_acted
    clipped_delta = torch.clamp(delta, min_delta, max_delta)
    loss = torch.mean(clipped_delta ** 2)  # expect: clamped-residual-loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()

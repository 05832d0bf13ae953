"""DQN on Atari frames with periodic checkpoints and resume."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def save_checkpoint(state, filename="checkpoint.pth.tar"):
    torch.save(state, filename)
    print("Checkpoint saved", state["timestep"])


def load_checkpoint(filename="checkpoint.pth.tar"):
    cp = torch.load(filename)  # expect: torch-load-unsafe
    return cp


class QNet(nn.Module):
    def __init__(self, n_actions):
        super().__init__()
        self.conv1 = nn.Conv2d(4, 32, 8, stride=4)
        self.conv2 = nn.Conv2d(32, 64, 4, stride=2)
        self.fc = nn.Linear(64 * 9 * 9, 256)
        self.head = nn.Linear(256, n_actions)

    def forward(self, x):
        x = F.relu(self.conv2(F.relu(self.conv1(x / 255.0))))
        return self.head(F.relu(self.fc(x.flatten(1))))


def resume(q, target_q, optimizer, path):
    cp = load_checkpoint(path)
    q.load_state_dict(cp["state_dict"])
    target_q.load_state_dict(cp["state_dict"])
    optimizer.load_state_dict(cp["optimizer"])
    return cp["timestep"]


def td_update(q, target_q, optimizer, batch, gamma=0.99):
    s, a, r, s2, done = batch
    with torch.no_grad():
        target = r + gamma * (1 - done) * target_q(s2).max(1).values
    pred = q(s).gather(1, a.unsqueeze(1)).squeeze(1)
    loss = F.smooth_l1_loss(pred, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()

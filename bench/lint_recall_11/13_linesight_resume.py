"""RL trainer for a racing agent: save and resume the online/target networks and optimizer."""
from pathlib import Path

import torch
import torch.nn as nn


class IQNNetwork(nn.Module):
    def __init__(self, float_inputs_dim, n_actions, dense_hidden=1024):
        super().__init__()
        self.img_head = nn.Sequential(nn.Conv2d(1, 16, 4, 2), nn.LeakyReLU(), nn.Conv2d(16, 32, 4, 2),
                                      nn.LeakyReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.float_head = nn.Sequential(nn.Linear(float_inputs_dim, 256), nn.LeakyReLU())
        self.A = nn.Sequential(nn.Linear(512 + 256, dense_hidden), nn.LeakyReLU(), nn.Linear(dense_hidden, n_actions))

    def forward(self, img, floats):
        return self.A(torch.cat([self.img_head(img), self.float_head(floats)], dim=1))


def save_checkpoint(save_dir: Path, online, target, optimizer, scaler):
    torch.save(online.state_dict(), save_dir / "weights1.torch")
    torch.save(target.state_dict(), save_dir / "weights2.torch")
    torch.save(optimizer.state_dict(), save_dir / "optimizer1.torch")
    torch.save(scaler.state_dict(), save_dir / "scaler.torch")


def resume(save_dir: Path, online, target, optimizer, scaler, device="cuda"):
    try:
        online.load_state_dict(torch.load(save_dir / "weights1.torch", map_location=device))  # expect: torch-load-unsafe
        target.load_state_dict(torch.load(save_dir / "weights2.torch", map_location=device, weights_only=True))
        optimizer.load_state_dict(torch.load(save_dir / "optimizer1.torch", map_location=device, weights_only=True))
        scaler.load_state_dict(torch.load(save_dir / "scaler.torch", weights_only=True))
        print(" =====================     Learner weights loaded !     ============================")
    except FileNotFoundError:
        print(" Learner could not load weights, starting from scratch")

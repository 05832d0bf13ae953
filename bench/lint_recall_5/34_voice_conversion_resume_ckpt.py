# Source: https://github.com/voicepaw/so-vits-svc-fork/issues/193
# Pitfall: the trainer resumes from user-downloaded .pth checkpoints with a bare torch.load(path); without
#          weights_only=True the file is fully unpickled, so a malicious checkpoint can run arbitrary code.
# Reproduced in our own words, not the original code.
import os

import torch
import torch.nn as nn


class ContentEncoder(nn.Module):
    def __init__(self, n_mels=80, hidden=192):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(n_mels, hidden, 5, padding=2), nn.GELU(), nn.Conv1d(hidden, hidden, 5, padding=2))
        self.proj = nn.Conv1d(hidden, n_mels, 1)

    def forward(self, mel):
        return self.proj(self.net(mel))


def load_checkpoint(checkpoint_path, model, optimizer=None):
    checkpoint_dict = torch.load(checkpoint_path, map_location="cpu")  # expect: torch-load-unsafe
    model.load_state_dict(checkpoint_dict["model"])
    if optimizer is not None and "optimizer" in checkpoint_dict:
        optimizer.load_state_dict(checkpoint_dict["optimizer"])
    return checkpoint_dict.get("iteration", 0)


def save_checkpoint(model, optimizer, iteration, path):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "iteration": iteration}, path)


def train(model_dir="logs/44k", steps=100):
    os.makedirs(model_dir, exist_ok=True)
    model = ContentEncoder()
    optim = torch.optim.AdamW(model.parameters(), lr=2e-4, betas=(0.8, 0.99))
    ckpt = os.path.join(model_dir, "G_latest.pth")
    start = load_checkpoint(ckpt, model, optim) if os.path.exists(ckpt) else 0
    for it in range(start, start + steps):
        mel = torch.randn(4, 80, 128)
        optim.zero_grad()
        loss = nn.functional.l1_loss(model(mel), mel)
        loss.backward()
        optim.step()
    save_checkpoint(model, optim, start + steps, ckpt)


if __name__ == "__main__":
    train()

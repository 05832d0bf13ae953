# Source: https://github.com/VITA-Group/DeblurGANv2/issues/15
# Pitfall: the trainer's _validate pass runs generator and losses with autograd enabled (no
# torch.no_grad), so validation keeps activations for backward: slower and far more memory.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(ch, 3, 3, padding=1))

    def forward(self, x):
        return torch.clamp(x + self.net(x), -1, 1)


def psnr(pred, target):
    mse = F.mse_loss(pred, target).item()
    return 10 * np.log10(4.0 / max(mse, 1e-10))


class Trainer:
    def __init__(self, netG, train_pairs, val_pairs, lr=1e-4):
        self.netG = netG
        self.train_pairs = train_pairs
        self.val_pairs = val_pairs
        self.optim = torch.optim.Adam(netG.parameters(), lr=lr)

    def _run_epoch(self):
        self.netG.train()
        losses = []
        for blurred, sharp in self.train_pairs:
            self.optim.zero_grad()
            out = self.netG(blurred)
            loss = F.l1_loss(out, sharp)
            loss.backward()
            self.optim.step()
            losses.append(loss.item())
        return float(np.mean(losses))

    def _validate(self):
        self.netG.eval()
        scores, losses = [], []
        for blurred, sharp in self.val_pairs:
            out = self.netG(blurred)  # expect: validation-in-train-mode
            losses.append(F.l1_loss(out, sharp).item())
            scores.append(psnr(out, sharp))
        self.netG.train()
        return float(np.mean(losses)), float(np.mean(scores))

    def train(self, epochs):
        for epoch in range(epochs):
            tr = self._run_epoch()
            vl, vp = self._validate()
            print(f"epoch {epoch} train {tr:.4f} val {vl:.4f} psnr {vp:.2f}")


if __name__ == "__main__":
    pairs = [(torch.rand(2, 3, 64, 64) * 2 - 1, torch.rand(2, 3, 64, 64) * 2 - 1) for _ in range(4)]
    Trainer(Generator(), pairs, pairs[:2]).train(2)

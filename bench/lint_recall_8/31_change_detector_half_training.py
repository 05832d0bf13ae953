# Source: https://github.com/wgcban/ChangeFormer/issues/91
# Pitfall: to fit 1024x1024 images the generator is cast with .half() and trained with plain
# backward/Adam steps, no loss scaling: small gradients flush to zero, others overflow, G_loss turns NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class SiameseChangeNet(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, ch, 3, 2, 1), nn.BatchNorm2d(ch), nn.ReLU(),
                                 nn.Conv2d(ch, ch, 3, 2, 1), nn.BatchNorm2d(ch), nn.ReLU())
        self.dec = nn.Sequential(nn.Conv2d(2 * ch, ch, 3, 1, 1), nn.ReLU(), nn.Conv2d(ch, 2, 1))

    def forward(self, a, b):
        fa, fb = self.enc(a), self.enc(b)
        out = self.dec(torch.cat([fa, torch.abs(fa - fb)], dim=1))
        return F.interpolate(out, size=a.shape[-2:], mode="bilinear", align_corners=False)


class CDTrainer:
    def __init__(self, lr=1e-4, device="cuda"):
        self.device = torch.device(device)
        self.net_G = SiameseChangeNet().to(self.device)
        self.net_G.half()  # expect: unscaled-fp16
        self.optimizer_G = torch.optim.AdamW(self.net_G.parameters(), lr=lr, weight_decay=0.01)
        self.G_loss = None

    def _forward_pass(self, batch):
        img_a = batch["A"].to(self.device).half()
        img_b = batch["B"].to(self.device).half()
        self.G_pred = self.net_G(img_a, img_b)

    def _backward_G(self, batch):
        gt = batch["L"].to(self.device).long()
        self.G_loss = F.cross_entropy(self.G_pred.float(), gt)
        self.G_loss.backward()

    def train_step(self, batch):
        self.net_G.train()
        self.optimizer_G.zero_grad()
        self._forward_pass(batch)
        self._backward_G(batch)
        self.optimizer_G.step()
        return self.G_loss.item()


if __name__ == "__main__":
    trainer = CDTrainer()
    for step in range(3):
        batch = {"A": torch.rand(2, 3, 1024, 1024), "B": torch.rand(2, 3, 1024, 1024),
                 "L": torch.randint(0, 2, (2, 1024, 1024))}
        print(step, trainer.train_step(batch))

# Source: https://github.com/utcsilab/deepinpy/issues/13
# Pitfall: the reconstruction loss is nn.MSELoss(reduction='sum'), so the gradient (and the SGD step) grows
#          with the batch size; raising the batch size makes training blow up unless the lr is retuned.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn


class UnrolledRecon(nn.Module):
    def __init__(self, ch=2, n_iter=4):
        super().__init__()
        self.denoisers = nn.ModuleList(
            [nn.Sequential(nn.Conv2d(ch, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, ch, 3, padding=1)) for _ in range(n_iter)]
        )
        self.step = nn.Parameter(torch.tensor(0.5))

    def forward(self, y, mask):
        x = y
        for dn in self.denoisers:
            x = x - self.step * mask * (x - y)
            x = x + dn(x)
        return x


class Recon:
    def __init__(self, hparams):
        self.hparams = hparams
        self.network = UnrolledRecon()
        self._loss_fun = torch.nn.MSELoss(reduction="sum")
        self.optimizer = torch.optim.SGD(self.network.parameters(), lr=hparams.step, momentum=0.9)

    def training_step(self, target, mask):
        y = target * mask + 0.05 * torch.randn_like(target)
        self.optimizer.zero_grad()
        x_hat = self.network(y, mask)
        loss = self._loss_fun(x_hat, target)  # expect: summed-loss-step
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch_size", type=int, default=4)
    ap.add_argument("--step", type=float, default=1e-4)
    hp = ap.parse_args()
    recon = Recon(hp)
    for it in range(20):
        tgt = torch.randn(hp.batch_size, 2, 64, 64)
        msk = (torch.rand(hp.batch_size, 1, 64, 64) > 0.6).float()
        print(it, recon.training_step(tgt, msk))

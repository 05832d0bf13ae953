# Source: https://github.com/nianticlabs/monodepth2/issues/24
# Pitfall: a modified training step computes the photometric loss inside a torch.no_grad() block (copied from
#          the validation path) and then calls backward(): no graph exists, so nothing can be learned from it.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class DispNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ELU(), nn.Conv2d(16, 16, 3, padding=1), nn.ELU())
        self.dec = nn.Conv2d(16, 1, 3, padding=1)

    def forward(self, img):
        return torch.sigmoid(self.dec(self.enc(img)))


def photometric(pred_img, target_img):
    return (pred_img - target_img).abs().mean()


def warp_with_disp(src, disp):
    b, _, h, w = src.shape
    ys, xs = torch.meshgrid(torch.linspace(-1, 1, h), torch.linspace(-1, 1, w), indexing="ij")
    grid = torch.stack([xs, ys], dim=-1).unsqueeze(0).repeat(b, 1, 1, 1)
    grid = grid.clone()
    grid[..., 0] = grid[..., 0] - disp.squeeze(1)
    return F.grid_sample(src, grid, align_corners=True)


class Trainer:
    def __init__(self):
        self.model = DispNet()
        self.optim = torch.optim.Adam(self.model.parameters(), lr=1e-4)

    def process_batch(self, left, right):
        with torch.no_grad():
            disp = self.model(left)
            recon = warp_with_disp(right, disp)
            loss = photometric(recon, left)
        return loss

    def train_step(self, left, right):
        self.model.train()
        self.optim.zero_grad()
        loss = self.process_batch(left, right)
        loss.backward()  # expect: backward-without-graph
        self.optim.step()
        return loss.item()


if __name__ == "__main__":
    t = Trainer()
    for _ in range(3):
        print(t.train_step(torch.rand(2, 3, 32, 64), torch.rand(2, 3, 32, 64)))

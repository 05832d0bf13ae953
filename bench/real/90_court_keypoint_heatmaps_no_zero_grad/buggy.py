"""Tennis-court keypoint network (TrackNet-style heatmaps, sigmoid + MSE, Adam) whose training loop
never calls optimizer.zero_grad(): every step applies the sum of all past gradients.

Source: https://github.com/yastrebksv/TennisCourtDetector/issues/7 (Why there is no "optimizer.zero_grad()" in base_trainer.py?)
Report: "Why there is no optimizer.zero_grad() in base_trainer.py? There must be smt wrong".
Maintainer: "You are right, thanks! I fixed it." base_trainer.train() ran `out =
model(batch[0])`, `loss = criterion(F.sigmoid(out), gt_hm_hp)`, `loss.backward()`,
`optimizer.step()` with criterion = nn.MSELoss() and Adam(lr, betas=(0.9, 0.999),
weight_decay=0), batch size 2, a DataLoader over court images with one Gaussian heatmap per
keypoint. Reproduced with a small BallTrackerNet-like encoder-decoder (conv-BN-ReLU blocks,
max-pooling, upsampling, one output channel per keypoint) on synthetic 32x32 court images
(white court lines of a randomly placed and skewed court on a textured background) with 5
keypoints (4 corners and the net centre), Adam at lr 1e-4 instead of the repo default 1e-5 so that
the short run learns; `acc` is the share of held-out keypoints whose
heatmap peak lies within 2 pixels of the truth.

expect: missing-zero-grad
symptom: acc-below 0.45
batch: 4
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

S, K = 32, 5
yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")


def draw_line(img, p, q, n=40):
    for t in torch.linspace(0, 1, n):
        x, y = (p + t * (q - p)).round().long().clamp(0, S - 1)
        img[y, x] = 1.0


def court_sample():
    cx, cy = 16 + 4 * (torch.rand(2) - 0.5)
    w, h, skew = 9 + 4 * torch.rand(()), 6 + 3 * torch.rand(()), 4 * (torch.rand(()) - 0.5)
    corners = torch.tensor([[cx - w + skew, cy - h], [cx + w + skew, cy - h],
                            [cx + w - skew, cy + h], [cx - w - skew, cy + h]])
    pts = torch.cat([corners, corners.mean(0, keepdim=True)])
    img = 0.25 * torch.rand(S, S)
    for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)):
        draw_line(img, corners[a], corners[b])
    draw_line(img, (corners[0] + corners[3]) / 2, (corners[1] + corners[2]) / 2)  # net line
    hm = torch.exp(-((xx[None] - pts[:, 0, None, None]) ** 2 + (yy[None] - pts[:, 1, None, None]) ** 2) / (2 * 1.5 ** 2))
    return img[None], hm, pts


def dataset(n):
    imgs, hms, pts = zip(*(court_sample() for _ in range(n)))
    return torch.stack(imgs), torch.stack(hms), torch.stack(pts)


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class BallTrackerNet(nn.Module):
    def __init__(self, out_channels=K):
        super().__init__()
        self.enc = nn.Sequential(block(1, 16), block(16, 16), nn.MaxPool2d(2), block(16, 32), block(32, 32))
        self.dec = nn.Sequential(nn.Upsample(scale_factor=2), block(32, 16), block(16, 16),
                                 nn.Conv2d(16, out_channels, 3, padding=1))

    def forward(self, x):
        return self.dec(self.enc(x))


def train(model, train_loader, optimizer, criterion, epoch):
    model.train()
    losses = []
    for iter_id, batch in enumerate(train_loader):
        out = model(batch[0].float())
        gt_hm_hp = batch[1].float()
        loss = criterion(torch.sigmoid(out), gt_hm_hp)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


train_x, train_hm, _ = dataset(400)
val_x, _, val_pts = dataset(200)
train_loader = DataLoader(TensorDataset(train_x, train_hm), batch_size=2, shuffle=True)
model = BallTrackerNet()
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), 1e-4, betas=(0.9, 0.999), weight_decay=0)
all_losses = []
for epoch in range(3):
    all_losses += train(model, train_loader, optimizer, criterion, epoch)
    print(f"epoch {epoch} train loss {sum(all_losses[-200:]) / 200:.5f}")

model.eval()
with torch.no_grad():
    hm = model(val_x).flatten(2).argmax(2)
    pred = torch.stack([hm % S, hm // S], 2).float()
    acc = ((pred - val_pts).norm(dim=2) <= 2).float().mean().item()
print(f"final_loss={sum(all_losses[-100:]) / 100:.6g} acc={acc:.4f}")

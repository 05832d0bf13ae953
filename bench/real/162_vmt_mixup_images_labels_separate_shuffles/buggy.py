"""Digit classifier trained with mixup regularisation as in VMT (virtual mixup training; small CNN, soft-label cross-entropy, Adam) where the mixing partners of the images and of the labels are drawn by two separate shuffles: the second image in every mix carries the label of a different, random sample, so a large share of every soft target is noise and the training loss stays far above that of consistent mixup.

Source: https://github.com/xudonmao/VMT/issues/1 (Mixup returns different combinations for labels and images)
Report: "The implementation of mixup seems to be wrong. We are supposed to use the same permutation
for the labels and images. But the use of 2 separate random_shuffle calls will return a different
combination of images and labels."; the author: "Thanks for pointing this out. We have fixed the
bug to have the same combination of images and labels. After fixing this bug, the performance of
VMT can be further improved". Reproduced with a mixup helper that shuffles the batch once for
the images and once more for the labels (torch.randperm twice), lambda ~ Beta(1, 1), on 4,000
synthetic 28x28 digit-like glyphs (10 stroke prototypes with random shifts, thickness and noise)
and a DataLoader. The printed loss is the mixup training loss of the last epoch, `acc` the
clean held-out accuracy.

expect: label-misaligned
symptom: final-loss-ratio 1.5
batch: 9
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

K = 10
yy, xx = torch.meshgrid(torch.arange(28.0), torch.arange(28.0), indexing="ij")


def stroke_imgs(pts, width):
    """Render polylines pts (n, 4, 2) with stroke widths (n,) as (n, 28, 28) images."""
    t = torch.linspace(0, 1, 12).view(1, 1, -1, 1)
    samples = (pts[:, :-1, None] + t * (pts[:, 1:, None] - pts[:, :-1, None])).flatten(1, 2)
    d2 = ((xx - samples[..., 0, None, None]) ** 2 + (yy - samples[..., 1, None, None]) ** 2).amin(1)
    return torch.exp(-d2 / (2 * width.view(-1, 1, 1) ** 2))


prototypes = 6 + 16 * torch.rand(K, 4, 2)


def make_set(n):
    labels = torch.randint(0, K, (n,))
    pts = prototypes[labels] + 0.8 * torch.randn(n, 4, 2) + torch.randint(-2, 3, (n, 1, 2))
    width = 1.0 + 0.5 * torch.rand(n)
    imgs = torch.cat([stroke_imgs(pts[i:i + 500], width[i:i + 500]) for i in range(0, n, 500)]).unsqueeze(1)
    return imgs + 0.15 * torch.randn_like(imgs), labels


def mixup(x, y_onehot, alpha=1.0):
    lam = torch.distributions.Beta(alpha, alpha).sample((x.shape[0], 1))
    idx_x = torch.randperm(x.shape[0])
    idx_y = torch.randperm(x.shape[0])
    x_mix = lam.view(-1, 1, 1, 1) * x + (1 - lam.view(-1, 1, 1, 1)) * x[idx_x]
    y_mix = lam * y_onehot + (1 - lam) * y_onehot[idx_y]
    return x_mix, y_mix


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(64, K)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


train_x, train_y = make_set(4000)
test_x, test_y = make_set(1000)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=64, shuffle=True)
model = ConvNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(6):
    model.train()
    total, count = 0.0, 0
    for x, y in loader:
        x_mix, y_mix = mixup(x, F.one_hot(y, K).float())
        loss = torch.sum(-y_mix * F.log_softmax(model(x_mix), 1), 1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} mixup loss {total / count:.4f}")

model.eval()
with torch.no_grad():
    acc = (model(test_x).argmax(1) == test_y).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")

"""Road-scene semantic segmentation (3 classes: none / road / car; a small ICNet-style network with a full-resolution branch and a quarter-resolution context branch fused by a cascade feature-fusion unit) trained with unweighted pixel-wise cross-entropy on scenes where cars cover about 2% of the pixels: the loss falls to a plateau set by the background and road pixels and the network labels almost every car pixel as road or background.

Source: https://github.com/hellochick/ICNet-tensorflow/issues/65 (model predicting all zeros after training with own dataset)
Report: "I'm training with my own dataset trying to classify 3 classes ... (none, road and cars) ...
the majority of the training images are road and background ... loss decreased to ~0.6 and stopped
improving, and the model tend to predict everything as 0"; answer: "If the majority of your
groundtruth is class 0 this can happen. I had a similiar problem with my own dataset and solved it
by applying class weights to the particular classes" (bigger weights for the rare classes).
Reproduced with 400 synthetic 32x48 RGB street scenes (textured background, a road band widening
towards the bottom, 1-3 cars per scene: small boxes whose colour differs only slightly from the
asphalt, with sensor noise), an ICNet-like two-branch network, Adam lr 1e-3, batch 16, 3 epochs,
`nn.CrossEntropyLoss()` without weights. The printed loss is the mean pixel loss of the last epoch,
`acc` the recall of the car class on 160 held-out scenes.

expect: class-imbalance
symptom: acc-below 0.35
batch: 10
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

H, W, NUM_CLASSES = 32, 48, 3


def make_scenes(n):
    imgs = torch.zeros(n, 3, H, W)
    labels = torch.zeros(n, H, W, dtype=torch.long)
    rows = torch.arange(H).view(H, 1).float()
    cols = torch.arange(W).view(1, W).float()
    for i in range(n):
        horizon = int(torch.randint(11, 16, (1,)))
        center = W / 2 + float(torch.randn(1)) * 6
        half = (rows - horizon).clamp(min=0) * (0.7 + 0.3 * float(torch.rand(1)))
        road = (rows >= horizon) & ((cols - center).abs() <= half)
        bg = torch.tensor([0.35, 0.55, 0.30]).view(3, 1, 1) + 0.15 * torch.rand(3, 1, 1)
        img = bg + 0.12 * F.avg_pool2d(torch.randn(1, 3, H, W), 3, 1, 1)[0]
        asphalt = torch.tensor([0.42, 0.42, 0.45]).view(3, 1, 1)
        img = torch.where(road, asphalt.expand(3, H, W), img)
        lab = road.long()
        for _ in range(int(torch.randint(1, 4, (1,)))):
            r = int(torch.randint(horizon + 3, H - 3, (1,)))
            hw = max(2, int((r - horizon) * 0.22))
            c = int(center + (float(torch.rand(1)) - 0.5) * 2 * max(1.0, (r - horizon) * 0.6))
            r0, r1, c0, c1 = r - hw // 2 - 1, r + hw // 2 + 1, max(c - hw, 0), min(c + hw, W)
            tint = asphalt.view(3) + torch.tensor([0.035, -0.014, -0.021]) * (0.8 + 0.4 * float(torch.rand(1)))
            img[:, r0:r1, c0:c1] = tint.view(3, 1, 1)
            lab[r0:r1, c0:c1] = 2
        imgs[i] = img + 0.08 * torch.randn(3, H, W)
        labels[i] = lab
    return imgs, labels


def conv_bn(cin, cout, stride=1, dilation=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CascadeFeatureFusion(nn.Module):
    def __init__(self, c_low, c_high, c_out):
        super().__init__()
        self.low = nn.Sequential(nn.Conv2d(c_low, c_out, 3, 1, 2, 2, bias=False), nn.BatchNorm2d(c_out))
        self.high = nn.Sequential(nn.Conv2d(c_high, c_out, 1, bias=False), nn.BatchNorm2d(c_out))

    def forward(self, x_low, x_high):
        x_low = F.interpolate(x_low, size=x_high.shape[2:], mode="bilinear", align_corners=False)
        return F.relu(self.low(x_low) + self.high(x_high))


class ICNetLite(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.high_branch = nn.Sequential(conv_bn(3, 16), conv_bn(16, 16))
        self.low_branch = nn.Sequential(conv_bn(3, 24, 2), conv_bn(24, 32, 2), conv_bn(32, 32, dilation=2),
                                        conv_bn(32, 32, dilation=4))
        self.cff = CascadeFeatureFusion(32, 16, 32)
        self.classifier = nn.Conv2d(32, num_classes, 1)

    def forward(self, x):
        return self.classifier(self.cff(self.low_branch(x), self.high_branch(x)))


train_x, train_y = make_scenes(400)
test_x, test_y = make_scenes(160)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=16, shuffle=True)

model = ICNetLite(NUM_CLASSES)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(3):
    model.train()
    total, count = 0.0, 0
    for imgs, labels in loader:
        loss = criterion(model(imgs), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f}")

model.eval()
with torch.no_grad():
    pred = model(test_x).argmax(1)
    car = test_y == 2
    acc = (pred[car] == 2).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")

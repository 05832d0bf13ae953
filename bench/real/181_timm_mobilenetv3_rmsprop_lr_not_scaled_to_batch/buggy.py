"""MobileNetV3-style classifier (hard-swish stem, inverted-residual blocks with depthwise convolutions and squeeze-excitation, RMSprop with momentum as in timm's ImageNet recipe) trained on traffic-sign-like images with the recipe's learning rate 0.064, which was tuned for a global batch of 1,024, while the batch here is 64: the per-sample step is 16x larger than intended, the first updates blow the weights and batch-norm statistics up, the loss jumps by orders of magnitude and the network ends the run at chance level.

Source: https://github.com/huggingface/pytorch-image-models/issues/814 ([BUG] Facing nan's during training mobilenetv3_large_100)
Report: training mobilenetv3_large_100 with the documented hyper-parameters gives "Loss: nan"
from epoch 4; the maintainer's answer: "you need to scale the LR down if you scale the batch size
down ... usually linear relationship works best. The original hparams were for a global batch
size of 2 * 512 = 1024 (two distributed processes), so with 1 x 256 you are 4x off. .064/4 would
be more appropriate". Reproduced with a MobileNetV3-like network in miniature (stem 16, five
inverted-residual blocks with expansion 3-4, SE and hard-swish, 1x1 head 256, dropout 0.2),
`RMSprop(alpha=0.9, eps=1e-3, momentum=0.9, weight_decay=1e-5)` at lr 0.064 with a step decay
of 0.973 every 2 epochs, label smoothing 0.1, batches of 64 from a DataLoader, on 1,600 synthetic
24x24 traffic signs (5 outline shapes x filled / ring, random colour, scale, position, clutter and
noise). The printed loss is the mean training loss of the last epoch (of 3), `acc` the held-out
accuracy.

expect: lr-too-high
symptom: loss-above 1.8
batch: 10
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

SIZE, N_CLASSES = 24, 10
GLOBAL_BATCH_OF_RECIPE, BATCH_SIZE, RECIPE_LR = 1024, 64, 0.064


def make_signs(n):
    lin = torch.linspace(-1, 1, SIZE)
    Y, X = torch.meshgrid(lin, lin, indexing="ij")
    imgs, labels = torch.zeros(n, 3, SIZE, SIZE), torch.randint(0, N_CLASSES, (n,))
    for i in range(n):
        shape, ring = int(labels[i]) // 2, int(labels[i]) % 2
        s = 0.5 + 0.35 * float(torch.rand(1))
        cy, cx = ((torch.rand(2) - 0.5) * (2 - 2 * s)).tolist()
        yy, xx = (Y - cy) / s, (X - cx) / s
        r, ang = (yy ** 2 + xx ** 2).sqrt(), torch.atan2(yy, xx)
        k = [0, 3, 4, 4, 8][shape]
        if k == 0:
            rad = torch.ones_like(r)
        else:
            off = math.pi / 4 if shape == 2 else (0.0 if shape != 1 else -math.pi / 2)
            rad = math.cos(math.pi / k) / torch.cos((ang - off) % (2 * math.pi / k) - math.pi / k)
        inside = r < 0.9 * rad
        m = inside & (r > 0.55 * rad) if ring else inside
        bg = 0.2 + 0.3 * torch.rand(3, 1, 1) + 0.2 * F.avg_pool2d(torch.rand(1, 3, SIZE, SIZE), 3, 1, 1)[0]
        fg = torch.rand(3, 1, 1)
        imgs[i] = torch.where(m, fg, bg) + 0.05 * torch.randn(3, SIZE, SIZE)
    return (imgs - 0.45) / 0.25, labels


class SqueezeExcite(nn.Module):
    def __init__(self, c, rd=4):
        super().__init__()
        self.reduce, self.expand = nn.Conv2d(c, c // rd, 1), nn.Conv2d(c // rd, c, 1)

    def forward(self, x):
        s = F.relu(self.reduce(x.mean((2, 3), keepdim=True)))
        return x * F.hardsigmoid(self.expand(s))


class InvertedResidual(nn.Module):
    def __init__(self, cin, cout, exp, stride):
        super().__init__()
        mid = cin * exp
        self.conv_pw = nn.Sequential(nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.Hardswish())
        self.conv_dw = nn.Sequential(nn.Conv2d(mid, mid, 3, stride, 1, groups=mid, bias=False),
                                     nn.BatchNorm2d(mid), nn.Hardswish())
        self.se = SqueezeExcite(mid)
        self.conv_pwl = nn.Sequential(nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.has_skip = stride == 1 and cin == cout

    def forward(self, x):
        out = self.conv_pwl(self.se(self.conv_dw(self.conv_pw(x))))
        return out + x if self.has_skip else out


class MobileNetV3(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.conv_stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.Hardswish())
        self.blocks = nn.Sequential(
            InvertedResidual(16, 16, 3, 1), InvertedResidual(16, 24, 4, 2), InvertedResidual(24, 24, 3, 1),
            InvertedResidual(24, 40, 4, 2), InvertedResidual(40, 40, 3, 1),
        )
        self.conv_head = nn.Sequential(nn.Conv2d(40, 256, 1), nn.Hardswish())
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(256, num_classes))

    def forward(self, x):
        x = self.conv_head(self.blocks(self.conv_stem(x)).mean((2, 3), keepdim=True))
        return self.classifier(x.flatten(1))


train_x, train_y = make_signs(1600)
test_x, test_y = make_signs(400)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=BATCH_SIZE, shuffle=True, drop_last=True)

model = MobileNetV3(N_CLASSES)
lr = RECIPE_LR
optimizer = torch.optim.RMSprop(model.parameters(), lr=lr, alpha=0.9, eps=1e-3, momentum=0.9, weight_decay=1e-5)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.973)

for epoch in range(3):
    model.train()
    total, count = 0.0, 0
    for x, y in loader:
        loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    scheduler.step()
    print(f"Train: {epoch} Loss: {total / count:.4f} LR: {scheduler.get_last_lr()[0]:.3e}")

model.eval()
with torch.no_grad():
    acc = (model(test_x).argmax(1) == test_y).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")

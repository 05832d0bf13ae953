"""Fault: data-unnormalized. Images kept as raw 0-255 pixel values (the /255 and the
mean/std normalization were forgotten) fed to a small CNN trained with SGD+momentum at
the learning rate that works for normalized images. The first conv's activations are in
the hundreds, the first loss is ~30 (chance is 1.39), the first update throws the
weights so far that the ReLUs die and the loss sits at chance for the rest of the run.

Mechanism: input scale ~100x too large (uint8 pixels cast to float without scaling).
"""
import argparse

import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class Shapes(Dataset):
    """Synthetic 3x24x24 uint8 images: class = which quadrant holds the bright blob."""

    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.y = torch.randint(0, 4, (n,), generator=g)
        base = torch.randint(0, 120, (n, 3, 24, 24), generator=g, dtype=torch.uint8)
        for i, c in enumerate(self.y.tolist()):
            r, col = divmod(c, 2)
            base[i, :, r * 12 + 2:r * 12 + 10, col * 12 + 2:col * 12 + 10] += 120
        self.x = base

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i].float(), self.y[i]   # forgot: / 255, normalize


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc = nn.Linear(32 * 6 * 6, 4)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=2)
a = ap.parse_args()
torch.manual_seed(a.seed)
loader = DataLoader(Shapes(2400, a.seed), batch_size=32, shuffle=True)
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
step = 0
for ep in range(a.epochs):
    for x, y in loader:
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}")
        step += 1

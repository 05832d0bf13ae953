"""Embedding-net classification baseline -- fixed by going back to the code base's PReLU activations
(a learnable negative slope, so the 2-D embedding units keep a gradient when their input is negative);
nothing else changed.
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

Act = nn.PReLU

prototypes = F.avg_pool2d((torch.rand(10, 1, 16, 16) < 0.25).float(), 3, 1, 1) * 2


def digits(n):
    y = torch.randint(0, 10, (n,))
    x = prototypes[y]
    shifts = torch.randint(-1, 2, (n, 2))
    x = torch.stack([torch.roll(img, tuple(s.tolist()), dims=(1, 2)) for img, s in zip(x, shifts)])
    return x + 0.3 * torch.randn_like(x), y


class EmbeddingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.convnet = nn.Sequential(nn.Conv2d(1, 8, 5), Act(), nn.MaxPool2d(2),
                                     nn.Conv2d(8, 16, 5), Act(), nn.MaxPool2d(2))
        self.fc = nn.Sequential(nn.Linear(16, 64), Act(), nn.Linear(64, 64), Act(), nn.Linear(64, 2))

    def forward(self, x):
        return self.fc(self.convnet(x).flatten(1))


class ClassificationNet(nn.Module):
    def __init__(self, embedding_net, n_classes):
        super().__init__()
        self.embedding_net = embedding_net
        self.nonlinear = Act()
        self.fc1 = nn.Linear(2, n_classes)

    def forward(self, x):
        return self.fc1(self.nonlinear(self.embedding_net(x)))


X, y = digits(4000)
model = ClassificationNet(EmbeddingNet(), 10)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
sched = torch.optim.lr_scheduler.StepLR(opt, 8, gamma=0.1)
loader = DataLoader(TensorDataset(X[:3000], y[:3000]), batch_size=64, shuffle=True)
for epoch in range(8):
    total, count = 0.0, 0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        count += len(xb)
    sched.step()
    print(f"epoch {epoch} loss {total / count:.4f}")

with torch.no_grad():
    acc = (model(X[3000:]).argmax(1) == y[3000:]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")

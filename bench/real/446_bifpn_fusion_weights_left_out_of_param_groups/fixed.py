"""Small EfficientDet-style classifier with weighted three-level feature fusion: the same program with the optimizer's parameter groups built from `named_parameters()` (BatchNorm weights, other weights with decay, and everything else, including the fusion weights), so the fusion weights are optimized and learn to favour the clean level.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_CLASSES, SIZE = 4, 12
templates = (torch.rand(N_CLASSES, 1, SIZE, SIZE) < 0.3).float()


def make_levels(n):
    y = torch.randint(0, N_CLASSES, (n,))
    img = templates[y] + 0.1 * torch.randn(n, 1, SIZE, SIZE)
    clean = img + 0.1 * torch.randn_like(img)
    noisy1 = img + 3.0 * torch.randn_like(img)
    noisy2 = img + 3.0 * torch.randn_like(img)
    return torch.stack([clean, noisy1, noisy2], 1), y


class WeightedFusion(nn.Module):
    def __init__(self, n_inputs, eps=1e-4):
        super().__init__()
        self.w = nn.Parameter(torch.ones(n_inputs))
        self.eps = eps

    def forward(self, levels):
        w = F.relu(self.w)
        w = w / (w.sum() + self.eps)
        return (w.view(1, -1, 1, 1, 1) * levels).sum(1)


class FusionNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fuse = WeightedFusion(3)
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(32)
        self.head = nn.Linear(32, N_CLASSES)

    def forward(self, levels):
        x = self.fuse(levels)
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.max_pool2d(x, 2)
        x = F.relu(self.bn2(self.conv2(x)))
        return self.head(x.mean((2, 3)))


def build_optimizer(model, lr, weight_decay):
    pg_bn, pg_w, pg_b = [], [], []
    bn_weights = {id(m.weight) for m in model.modules() if isinstance(m, nn.BatchNorm2d)}
    for name, p in model.named_parameters():
        if id(p) in bn_weights:
            pg_bn.append(p)
        elif name.endswith(".weight"):
            pg_w.append(p)
        else:
            pg_b.append(p)
    opt = torch.optim.Adam(pg_bn, lr=lr)
    opt.add_param_group({"params": pg_w, "weight_decay": weight_decay})
    opt.add_param_group({"params": pg_b})
    return opt


X_train, y_train = make_levels(3000)
X_test, y_test = make_levels(1000)
model = FusionNet()
opt = build_optimizer(model, lr=3e-3, weight_decay=1e-4)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

for epoch in range(6):
    model.train()
    total = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} train {total / len(X_train):.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

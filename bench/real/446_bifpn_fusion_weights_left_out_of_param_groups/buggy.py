"""Small EfficientDet-style classifier whose neck fuses three input feature levels with learnable, fast-normalized fusion weights (BiFPN "weighted feature fusion": relu(w_i) / (sum relu(w) + eps)), followed by a conv head. The optimizer's parameter groups are built the YOLO way, by walking `named_modules()` and collecting each module's `.weight` (no decay) and `.bias`; the fusion weights are bare `nn.Parameter`s registered under other names, so they are never handed to the optimizer. They receive gradients on every step but stay at their initial value [1, 1, 1]: the neck keeps averaging the clean level with the two heavily noise-corrupted levels, and the model ends far worse than when the fusion weights can learn to favour the clean level.

Source: https://github.com/bubbliiiing/efficientdet-pytorch/issues/37 (bifpn中加权聚合时（简单的注意力机制），权重参数不更新问题)
Report: "发现权重w初始化值是【1,1】训练好的模型，w仍然是【1,1】 ... w1的requires_gard=True，梯度gard也是一直有的 ... 但w1的值没有更新一直都是【1,1】 ... 最后发现应该是权重参数w不在optimizer.param_groups中" (the BiFPN fusion weights
initialised to [1, 1] are still [1, 1] after training although they have requires_grad and a gradient; they were not in the
optimizer's param_groups, which are built by filtering). Reproduced with synthetic 12x12 images of 4 stroke patterns seen at
three "levels" (one clean, two with heavy pixel noise) and an optimizer whose groups come from walking the modules' weight and
bias attributes. The printed loss is the held-out cross-entropy, `acc` the held-out accuracy.

expect: params-not-updated
symptom: final-loss-ratio 2
batch: 28
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
    for _, m in model.named_modules():
        if hasattr(m, "bias") and isinstance(m.bias, nn.Parameter):
            pg_b.append(m.bias)
        if isinstance(m, nn.BatchNorm2d):
            pg_bn.append(m.weight)
        elif hasattr(m, "weight") and isinstance(m.weight, nn.Parameter):
            pg_w.append(m.weight)
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

"""Implicit-geometry (signed-distance) MLP with 24 hidden tanh layers: the same program with an identity skip connection around each hidden layer (h = h + tanh(W h + b)), so the gradient reaches the first layers through the identity paths and the whole stack learns the distance field.
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

DEPTH, WIDTH, EPOCHS = 24, 64, 8


def sample_points(n):
    p = torch.rand(n, 3) * 2 - 1
    d1 = (p - torch.tensor([0.3, 0.0, 0.0])).norm(dim=1) - 0.4
    d2 = (p + torch.tensor([0.3, 0.1, 0.0])).norm(dim=1) - 0.35
    return p, torch.minimum(d1, d2)[:, None]


class SDFNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(3, WIDTH)
        self.hidden = nn.ModuleList(nn.Linear(WIDTH, WIDTH) for _ in range(DEPTH))
        self.out = nn.Linear(WIDTH, 1)

    def forward(self, x):
        h = torch.tanh(self.inp(x))
        for layer in self.hidden:
            h = h + torch.tanh(layer(h))
        return self.out(h)


P_train, D_train = sample_points(4000)
P_test, D_test = sample_points(1000)
model = SDFNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(P_train, D_train), batch_size=128, shuffle=True)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, EPOCHS * len(loader))

for epoch in range(EPOCHS):
    total = 0.0
    for pb, db in loader:
        loss = F.l1_loss(model(pb), db)
        opt.zero_grad()
        loss.backward()
        first_grad = model.inp.weight.grad.norm().item()
        opt.step()
        sched.step()
        total += loss.item() * len(pb)
    with torch.no_grad():
        pred = model(P_test)
        test_l1 = F.l1_loss(pred, D_test).item()
        acc = ((pred > 0) == (D_test > 0)).float().mean().item()
    print(f"epoch {epoch} train_l1 {total / len(P_train):.4f} test_l1 {test_l1:.4f} sign_acc {acc:.3f} first_layer_grad {first_grad:.2e}")

print(f"final_loss={test_l1:.6g} acc={acc:.4f}")

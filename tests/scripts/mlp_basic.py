"""A plain training loop: MLP regression with a DataLoader, Adam and a StepLR.
Arguments: --steps N --nan-at K (make the loss NaN from step K by poisoning a batch) --eval."""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=60)
p.add_argument("--nan-at", type=int, default=-1)
p.add_argument("--eval", action="store_true")
p.add_argument("--lr", type=float, default=1e-2)
p.add_argument("--print-losses", action="store_true")
a = p.parse_args()

torch.manual_seed(0)
X = torch.randn(512, 8)
Y = X @ torch.randn(8, 1) + 0.1 * torch.randn(512, 1)
if a.nan_at >= 0:
    X[300] = float("nan")
ds = TensorDataset(X, Y)
g = torch.Generator().manual_seed(1)
loader = DataLoader(ds, batch_size=16, shuffle=True, generator=g)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=a.lr)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=20, gamma=0.5)
loss_fn = nn.MSELoss()
step = 0
losses = []
while step < a.steps:
    for x, y in loader:
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
        step += 1
        if a.eval and step % 20 == 0:
            model.eval()
            with torch.no_grad():
                vl = loss_fn(model(X[:64]), Y[:64])
            model.train()
        if step >= a.steps:
            break
if a.print_losses:
    print(" ".join(repr(l) for l in losses))
print("done", len(losses))

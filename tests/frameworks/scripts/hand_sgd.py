import torch
from torch import nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 1))
lr = 0.01
for it in range(600):
    x = torch.randn(32, 8); y = x[:, :1]
    loss = nn.functional.mse_loss(m(x), y)
    m.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in m.parameters():
            p.add_(p.grad, alpha=-lr)
    if it % 100 == 0: print(it, loss.item())

"""Style: "just make it faster" pure float16 training."""
import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024))

    def forward(self, x):
        return self.layers(x)


def main(loader):
    model = MLP().cuda().half()  # expect: unscaled-fp16
    opt = torch.optim.Adam(model.parameters(), lr=1e-4, eps=1e-4)
    for x, y in loader:
        x, y = x.cuda().half(), y.cuda().half()
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

# Source: https://github.com/silvandeleemput/memcnn/issues/57
# Pitfall: the mixed-precision example calls scaler.scale(loss).backward() inside the autocast block; the AMP
#   recipe wraps only the forward pass and loss, and the maintainer agrees the backward can move outside.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class AdditiveCoupling(nn.Module):
    def __init__(self, channels):
        super().__init__()
        half = channels // 2
        self.F = nn.Sequential(nn.Conv2d(half, half, 3, padding=1), nn.BatchNorm2d(half), nn.ReLU())
        self.G = nn.Sequential(nn.Conv2d(half, half, 3, padding=1), nn.BatchNorm2d(half), nn.ReLU())

    def forward(self, x):
        x1, x2 = x.chunk(2, dim=1)
        y1 = x1 + self.F(x2)
        y2 = x2 + self.G(y1)
        return torch.cat([y1, y2], dim=1)


def train(model, loader, device="cuda", epochs=1):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.cuda.amp.GradScaler()
    criterion = nn.MSELoss()
    model.train()
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            with torch.cuda.amp.autocast():
                out = model(x)
                loss = criterion(out, y)
                scaler.scale(loss).backward()  # expect: backward-inside-autocast
            scaler.step(optimizer)
            scaler.update()

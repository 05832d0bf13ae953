# Source: https://github.com/lucidrains/vit-pytorch/commit/64a07f50e608350a01d257b78d29b64d2fce88fd
# Pitfall: the channel LayerNorm takes var(x).sqrt() and only then adds eps to the std; where the variance is
#   exactly zero the sqrt has an infinite derivative, so the backward pass produces inf/NaN gradients.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class ChanNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.g = nn.Parameter(torch.ones(1, dim, 1, 1))
        self.b = nn.Parameter(torch.zeros(1, dim, 1, 1))

    def forward(self, x):
        std = torch.var(x, dim=1, unbiased=False, keepdim=True).sqrt()  # expect: unguarded-zero
        mean = torch.mean(x, dim=1, keepdim=True)
        return (x - mean) / (std + self.eps) * self.g + self.b


class ConvStage(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.proj = nn.Conv2d(dim_in, dim_out, 3, stride=2, padding=1)
        self.norm = ChanNorm(dim_out)
        self.ff = nn.Sequential(nn.Conv2d(dim_out, dim_out * 4, 1), nn.GELU(), nn.Conv2d(dim_out * 4, dim_out, 1))

    def forward(self, x):
        x = self.norm(self.proj(x))
        return x + self.ff(x)


class TinyConvViT(nn.Module):
    def __init__(self, num_classes=100):
        super().__init__()
        self.stages = nn.Sequential(ConvStage(3, 64), ConvStage(64, 128), ConvStage(128, 256))
        self.head = nn.Linear(256, num_classes)

    def forward(self, x):
        return self.head(self.stages(x).mean(dim=(2, 3)))


def train(loader, epochs=10):
    model = TinyConvViT().cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4, weight_decay=0.05)
    crit = nn.CrossEntropyLoss(label_smoothing=0.1)
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(epoch, loss.item())

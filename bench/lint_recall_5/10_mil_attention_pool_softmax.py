# Source: https://github.com/microsoft/hi-ml/pull/567
# Pitfall: the attention-MIL pooling normalises tile scores with F.softmax(scores) and no dim, relying on
#          the deprecated implicit choice instead of naming the tile axis explicitly.
# Reproduced in our own words, not the original code.
import torch
from torch import nn
from torch.nn import functional as F


class GatedAttentionPool(nn.Module):
    def __init__(self, in_dim=128, hidden=64):
        super().__init__()
        self.v = nn.Linear(in_dim, hidden)
        self.u = nn.Linear(in_dim, hidden)
        self.w = nn.Linear(hidden, 1)

    def forward(self, tiles):  # tiles: (num_tiles, in_dim), one slide per call
        scores = self.w(torch.tanh(self.v(tiles)) * torch.sigmoid(self.u(tiles)))  # (num_tiles, 1)
        scores = scores.transpose(0, 1)  # (1, num_tiles)
        weights = F.softmax(scores)  # expect: softmax-without-dim
        return weights @ tiles, weights


class SlideClassifier(nn.Module):
    def __init__(self, in_dim=128, n_classes=2):
        super().__init__()
        self.pool = GatedAttentionPool(in_dim)
        self.cls = nn.Linear(in_dim, n_classes)

    def forward(self, tiles):
        bag, _ = self.pool(tiles)
        return self.cls(bag)


if __name__ == "__main__":
    model = SlideClassifier()
    optim = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(20):
        tiles = torch.randn(torch.randint(10, 50, (1,)).item(), 128)
        label = torch.randint(0, 2, (1,))
        optim.zero_grad()
        loss = F.cross_entropy(model(tiles), label)
        loss.backward()
        optim.step()

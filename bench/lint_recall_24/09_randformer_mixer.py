"""MetaFormer baseline with a fixed random token-mixing matrix (RandFormer)."""
import torch
from torch import nn


class RandomMixing(nn.Module):
    def __init__(self, num_tokens=196):
        super().__init__()
        self.random_matrix = nn.Parameter(
            torch.softmax(torch.rand(num_tokens, num_tokens)),  # expect: softmax-without-dim
            requires_grad=False,
        )

    def forward(self, x):
        b, h, w, c = x.shape
        x = x.reshape(b, h * w, c)
        x = torch.einsum("mn,bnc->bmc", self.random_matrix, x)
        return x.reshape(b, h, w, c)


class MetaBlock(nn.Module):
    def __init__(self, dim, num_tokens, mlp_ratio=4):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.mixer = RandomMixing(num_tokens)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * mlp_ratio), nn.GELU(), nn.Linear(dim * mlp_ratio, dim))

    def forward(self, x):
        x = x + self.mixer(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class RandFormer(nn.Module):
    def __init__(self, num_classes=10, dim=64, patch=4, img=32, depth=4):
        super().__init__()
        self.stem = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        tokens = (img // patch) ** 2
        self.blocks = nn.Sequential(*[MetaBlock(dim, tokens) for _ in range(depth)])
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        x = self.stem(x).permute(0, 2, 3, 1)
        x = self.blocks(x)
        return self.head(x.mean(dim=(1, 2)))


if __name__ == "__main__":
    net = RandFormer()
    print(net(torch.randn(2, 3, 32, 32)).shape)

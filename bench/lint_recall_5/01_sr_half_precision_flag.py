# Source: https://github.com/sanghyun-son/EDSR-PyTorch/issues/36
# Pitfall: a --precision half flag casts the whole super-resolution net to float16 and trains it with Adam
#          and no loss scaling; small gradients underflow and the L1 loss goes to inf within a few batches.
# Reproduced in our own words, not the original code.
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TinyUpscaler(nn.Module):
    def __init__(self, feats=32, scale=2):
        super().__init__()
        self.head = nn.Conv2d(3, feats, 3, padding=1)
        self.body = nn.Sequential(
            nn.Conv2d(feats, feats, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(feats, feats, 3, padding=1),
        )
        self.tail = nn.Sequential(nn.Conv2d(feats, 3 * scale * scale, 3, padding=1), nn.PixelShuffle(scale))

    def forward(self, lr_img):
        h = self.head(lr_img)
        return self.tail(h + self.body(h))


def build_parser():
    p = argparse.ArgumentParser()
    p.add_argument("--precision", choices=["single", "half"], default="single")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--lr", type=float, default=1e-4)
    return p


def main():
    args = build_parser().parse_args()
    device = torch.device("cuda")
    net = TinyUpscaler().to(device)
    if args.precision == "half":
        net = net.half()  # expect: unscaled-fp16
    data_dtype = torch.float16 if args.precision == "half" else torch.float32
    low = torch.rand(64, 3, 24, 24)
    high = torch.rand(64, 3, 48, 48)
    loader = DataLoader(TensorDataset(low, high), batch_size=8, shuffle=True)
    l1 = nn.L1Loss()
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        for lr_img, hr_img in loader:
            lr_img, hr_img = lr_img.to(device, data_dtype), hr_img.to(device, data_dtype)
            opt.zero_grad()
            loss = l1(net(lr_img), hr_img)
            loss.backward()
            opt.step()
        print(f"epoch {epoch} last loss {loss.item():.4f}")


if __name__ == "__main__":
    main()

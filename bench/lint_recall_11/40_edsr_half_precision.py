"""Super-resolution trainer with a --precision switch (single or half)."""
import torch
import torch.nn as nn


class EDSR(nn.Module):
    def __init__(self, n_resblocks=16, n_feats=64, scale=2):
        super().__init__()
        self.head = nn.Conv2d(3, n_feats, 3, padding=1)
        self.body = nn.Sequential(*[nn.Sequential(nn.Conv2d(n_feats, n_feats, 3, padding=1), nn.ReLU(True),
                                                  nn.Conv2d(n_feats, n_feats, 3, padding=1))
                                    for _ in range(n_resblocks)])
        self.tail = nn.Sequential(nn.Conv2d(n_feats, n_feats * scale ** 2, 3, padding=1), nn.PixelShuffle(scale),
                                  nn.Conv2d(n_feats, 3, 3, padding=1))

    def forward(self, x):
        x = self.head(x)
        return self.tail(self.body(x) + x)


class Trainer:
    def __init__(self, args, loader_train, device="cuda"):
        self.args = args
        self.device = device
        self.loader_train = loader_train
        self.model = EDSR(scale=args.scale).to(device)
        if args.precision == "half":
            self.model.half()  # expect: unscaled-fp16
        self.loss = nn.L1Loss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=args.lr, betas=(0.9, 0.999), eps=1e-8)

    def prepare(self, *tensors):
        def _prepare(t):
            if self.args.precision == "half":
                t = t.half()
            return t.to(self.device)
        return [_prepare(t) for t in tensors]

    def train(self, epoch):
        self.model.train()
        for batch, (lr, hr) in enumerate(self.loader_train):
            lr, hr = self.prepare(lr, hr)
            self.optimizer.zero_grad()
            sr = self.model(lr)
            loss = self.loss(sr, hr)
            if loss.item() < self.args.skip_threshold * 1000:
                loss.backward()
                self.optimizer.step()
            else:
                print(f"Skip this batch {batch + 1}! (Loss: {loss.item()})")

"""IM-NET-style implicit shape decoder -- fixed as the IM-NET author describes: skip connections feed
the query point and shape code into every hidden layer and the output layer, so the signal and the
gradients no longer have to pass through the whole stack of small-weight layers (nothing else changed).
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

N_SHAPES, Z, H, DEPTH = 64, 16, 128, 10
SKIP = True
shape_params = torch.rand(N_SHAPES, 4) * torch.tensor([1.0, 1.0, 0.5, 0.5]) + torch.tensor([-0.5, -0.5, 0.2, 0.2])
codes = shape_params @ (torch.randn(4, Z) / 2)


def occupancy(shape_id, pts):
    p = shape_params[shape_id]
    return ((((pts[:, 0] - p[:, 0]) / p[:, 2]) ** 2 + ((pts[:, 1] - p[:, 1]) / p[:, 3]) ** 2) < 1).float()


class IMDecoder(nn.Module):
    def __init__(self, skip):
        super().__init__()
        self.skip = skip
        d_in = 2 + Z
        extra = d_in if skip else 0
        self.layers = nn.ModuleList([nn.Linear(d_in, H)] + [nn.Linear(H + extra, H) for _ in range(DEPTH - 1)])
        self.out = nn.Linear(H + extra, 1)
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, 0.0, 0.02)
                nn.init.zeros_(m.bias)

    def forward(self, pts, z):
        inp = torch.cat([pts, z], 1)
        h = inp
        for i, layer in enumerate(self.layers):
            if self.skip and i > 0:
                h = torch.cat([h, inp], 1)
            h = F.leaky_relu(layer(h), 0.02)
        if self.skip:
            h = torch.cat([h, inp], 1)
        return torch.sigmoid(self.out(h)).squeeze(1)


model = IMDecoder(SKIP)
opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)

for step in range(1500):
    sid = torch.randint(N_SHAPES, (512,))
    pts = torch.rand(512, 2) * 2 - 1
    loss = ((model(pts, codes[sid]) - occupancy(sid, pts)) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 300 == 299:
        with torch.no_grad():
            sid = torch.randint(N_SHAPES, (4000,))
            pts = torch.rand(4000, 2) * 2 - 1
            pred, target = model(pts, codes[sid]), occupancy(sid, pts)
            val = ((pred - target) ** 2).mean().item()
            acc = ((pred > 0.5).float() == target).float().mean().item()
        g0 = model.layers[0].weight.grad.abs().mean().item()
        print(f"step {step} train {loss.item():.4f} val {val:.4f} acc {acc:.3f} |grad| layer0 {g0:.2e}")

print(f"final_loss={val:.6g} acc={acc:.4f}")

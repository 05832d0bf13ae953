"""Half-precision noise-prediction denoiser -- fixed the way the report suggests: Adam's epsilon is
raised from the default 1e-8 (which is 0 in float16) to 1e-4, a value float16 can represent, so
the update never divides by zero (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

ADAM_EPS = 1e-4


def make_patches(n):
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, 8), torch.linspace(-1, 1, 8), indexing="ij")
    a, b, c = torch.randn(3, n, 1, 1) * 0.4
    cx, cy = torch.rand(2, n, 1, 1) * 2 - 1
    blob = torch.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 0.2)
    img = 0.5 + a * xx + b * yy + c * blob
    return img.reshape(n, 64)


train = make_patches(3000)
test = make_patches(500)

model = nn.Sequential(nn.Linear(65, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU(), nn.Linear(128, 64))
model = model.half()
opt = torch.optim.Adam(model.parameters(), lr=1e-3, eps=ADAM_EPS)

history = []
for step in range(400):
    idx = torch.randint(0, len(train), (64,))
    x0 = train[idx]
    sigma = torch.rand(64, 1) * 0.45 + 0.05
    noise = torch.randn_like(x0)
    inp = torch.cat([x0 + sigma * noise, sigma], dim=1).half()
    pred = model(inp)
    loss = ((pred.float() - noise) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss.item())
    if step % 100 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    sigma = torch.rand(500, 1) * 0.45 + 0.05
    noisy = test + sigma * torch.randn_like(test)
    est = model(torch.cat([noisy, sigma], dim=1).half()).float()
    denoised = noisy - sigma * est
    better = ((denoised - test) ** 2).mean(1) < ((noisy - test) ** 2).mean(1)
    acc = better.float().mean().item()
final = sum(history[-50:]) / 50
print(f"final_loss={final:.6g} acc={acc:.4f}")

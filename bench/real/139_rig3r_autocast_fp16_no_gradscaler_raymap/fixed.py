"""Rig3R-style multi-task 3-D regression under float16 autocast -- fixed as the issue prescribes for
fp16: a GradScaler scales the loss before backward and unscales the gradients before the optimizer
step, so the small raymap gradients stay representable in float16; nothing else changed.

Source: https://github.com/engichang1467/Open-Rig3R/issues/35 (autocast defaults to fp16 with no GradScaler -- gradients can silently underflow to zero)
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

H = W = 32
P = 8
NT = (H // P) * (W // P)
D = 48
RAY_WEIGHT = 0.004


def rot(pitch, yaw, roll):
    cp, sp, cy, sy, cr, sr = [f(a) for a in (pitch, yaw, roll) for f in (torch.cos, torch.sin)]
    Rx = torch.stack([torch.ones_like(cp), 0 * cp, 0 * cp, 0 * cp, cp, -sp, 0 * cp, sp, cp], -1).view(-1, 3, 3)
    Ry = torch.stack([cy, 0 * cy, sy, 0 * cy, torch.ones_like(cy), 0 * cy, -sy, 0 * cy, cy], -1).view(-1, 3, 3)
    Rz = torch.stack([cr, -sr, 0 * cr, sr, cr, 0 * cr, 0 * cr, 0 * cr, torch.ones_like(cr)], -1).view(-1, 3, 3)
    return Ry @ Rx @ Rz


def make_views(n):
    f = 20 + 25 * torch.rand(n)                                        # focal length in pixels
    pitch, yaw, roll = 0.3 * torch.randn(n), math.pi * (2 * torch.rand(n) - 1), 0.1 * torch.randn(n)
    R = rot(pitch, yaw, roll)
    v, u = torch.meshgrid(torch.arange(H) + 0.5, torch.arange(W) + 0.5, indexing="ij")
    cam = torch.stack([(u - W / 2)[None] / f[:, None, None], (v - H / 2)[None] / f[:, None, None],
                       torch.ones(n, H, W)], -1)
    rays_cam = F.normalize(cam, dim=-1)                                 # camera-frame unit rays
    rays = torch.einsum("nij,nhwj->nhwi", R, rays_cam)                  # world-frame, for the scene
    # scene: ground plane 1.6 m below the camera plus a far wall, depth along each ray
    t_ground = torch.where(rays[..., 1] > 0.02, 1.6 / rays[..., 1].clamp(min=1e-3), torch.full_like(rays[..., 1], 1e3))
    depth = t_ground.clamp(max=20.0)
    points = depth.unsqueeze(-1) * rays_cam                            # pointmap in the camera frame
    world = depth.unsqueeze(-1) * rays
    texture = torch.sin(world[..., 0] * 3) * torch.sin(world[..., 2] * 3)
    img = torch.stack([0.5 + 0.3 * texture / (1 + 0.1 * depth), 0.6 - 0.02 * depth, 0.4 + 0.3 * rays[..., 1]], 1)
    img = img + 0.02 * torch.randn_like(img)
    meta = torch.stack([20 / f, torch.sin(pitch), torch.cos(pitch), torch.sin(yaw), torch.cos(yaw), roll], -1)
    return img, meta, points.permute(0, 3, 1, 2), rays_cam.permute(0, 3, 1, 2)


class Block(nn.Module):
    def __init__(self, d, heads=4):
        super().__init__()
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.heads = heads

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.n1(x)).view(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        att = F.softmax(q @ k.transpose(-1, -2) / math.sqrt(d // self.heads), -1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, t, d))
        return x + self.mlp(self.n2(x))


class Rig3RLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = nn.Linear(3 * P * P, D)
        self.meta = nn.Sequential(nn.Linear(6, D), nn.GELU(), nn.Linear(D, D))
        self.pos = nn.Parameter(torch.randn(NT, D) * 0.02)
        self.blocks = nn.ModuleList([Block(D) for _ in range(2)])
        self.norm = nn.LayerNorm(D)
        self.point_head = nn.Linear(D, P * P * 3)
        self.ray_head = nn.Linear(D, P * P * 3)

    def unpatch(self, y):
        b = y.shape[0]
        return y.view(b, H // P, W // P, 3, P, P).permute(0, 3, 1, 4, 2, 5).reshape(b, 3, H, W)

    def forward(self, images, metadata):
        patches = F.unfold(images, P, stride=P).transpose(1, 2)        # [b, NT, 3*P*P]
        x = self.patch(patches) + self.pos + self.meta(metadata).unsqueeze(1)
        for blk in self.blocks:
            x = blk(x)
        x = self.norm(x)
        return self.unpatch(self.point_head(x)), self.unpatch(self.ray_head(x))


def multitask_loss(pred_points, pred_rays, points, rays):
    point_loss = F.mse_loss(pred_points.float(), points)
    ray_loss = (1 - F.cosine_similarity(pred_rays.float(), rays, dim=1)).mean()
    return point_loss + RAY_WEIGHT * ray_loss, point_loss, ray_loss


val = make_views(64)
model = Rig3RLite()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.01)
scaler = torch.amp.GradScaler("cpu")
for step in range(320):
    images, metadata, points, rays = make_views(16)
    with torch.autocast(device_type="cpu", dtype=torch.float16):
        outputs = model(images, metadata)
        loss, point_loss, ray_loss = multitask_loss(*outputs, points, rays)
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    if step % 80 == 0:
        print(f"step {step} loss {loss.item():.4f} point {point_loss.item():.4f} ray {ray_loss.item():.5f}")

model.eval()
with torch.no_grad(), torch.autocast(device_type="cpu", dtype=torch.float16):
    pred_points, pred_rays = model(val[0], val[1])
    cos = F.cosine_similarity(pred_rays.float(), val[3], dim=1)
val_ray = (1 - cos).mean().item()
acc = (cos > math.cos(math.radians(1.0))).float().mean().item()
print(f"final_loss={val_ray:.6g} acc={acc:.4f}")

"""Multi-view 3-D regression transformer (Rig3R-style: image patches + camera metadata in, per-pixel pointmap in metres and per-pixel unit raymap out, loss = pointmap MSE + weighted cosine raymap term) trained under torch.autocast with float16 and no GradScaler: the raymap term's per-pixel gradients are below float16's subnormal range, flush to zero in the backward pass, and the raymap error stops improving while the float16 run with loss scaling keeps reducing it.

Source: https://github.com/engichang1467/Open-Rig3R/issues/35 (autocast defaults to fp16 with no GradScaler -- gradients can silently underflow to zero)
Report: "scripts/train.py enter[s] autocast without a dtype ... On CUDA, torch.amp.autocast
defaults to fp16 ... And there is no scaler anywhere in the file ... fp16's smallest normal is
6.1e-05; anything below that flushes to zero in the backward pass. Small gradients ... and all of
the raymap terms, which are cosine-based and bounded by 2 -- silently vanish. There is no error,
no NaN, no warning: the loss curve just flattens earlier than it should"; MultiTaskLoss "mixes a
metric pointmap MSE in metres (tens) with two bounded cosine terms, so the raymap gradients are
already orders of magnitude smaller than the depth term before fp16 gets to them." Fix: bf16 where
available, otherwise a GradScaler. Reproduced with that training step in miniature (autocast
float16 on the CPU, patch embedding + camera-metadata embedding, 2 transformer blocks, linear
per-patch heads for 8 x 8 x 3 pointmap and raymap values, MultiTaskLoss = MSE(pointmap) +
0.004 * mean(1 - cos(raymap)), AdamW lr 2e-3, 320 steps of 16 views) on synthetic 32 x 32 views of
a ground-plane scene seen by cameras of random focal length and orientation (camera-frame pointmap
and raymap). The printed loss is the validation raymap term
mean(1 - cos), `acc` the share of validation pixels whose predicted ray is within 1 degree.

expect: fp16-underflow
symptom: final-loss-ratio 3
batch: 8
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
for step in range(320):
    images, metadata, points, rays = make_views(16)
    with torch.autocast(device_type="cpu", dtype=torch.float16):
        outputs = model(images, metadata)
        loss, point_loss, ray_loss = multitask_loss(*outputs, points, rays)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 80 == 0:
        print(f"step {step} loss {loss.item():.4f} point {point_loss.item():.4f} ray {ray_loss.item():.5f}")

model.eval()
with torch.no_grad(), torch.autocast(device_type="cpu", dtype=torch.float16):
    pred_points, pred_rays = model(val[0], val[1])
    cos = F.cosine_similarity(pred_rays.float(), val[3], dim=1)
val_ray = (1 - cos).mean().item()
acc = (cos > math.cos(math.radians(1.0))).float().mean().item()
print(f"final_loss={val_ray:.6g} acc={acc:.4f}")

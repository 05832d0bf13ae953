"""Mesh deformation with an edge-length regulariser via sqrt: NaN at the regular initial mesh.

Source: https://github.com/akanazawa/cmr/issues/11 (triangle_loss_fn returns nan)
Report: the triangle loss returns NaN; "as mentioned in pytorch/pytorch#6394, the gradient of
sqrt is not defined at 0". The loss takes sqrt of a quantity that is exactly 0 for the initial
(regular) mesh; the fix keeps the argument away from 0.

expect: unstable-op
symptom: nonfinite
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

n = 12
gy, gx = torch.meshgrid(torch.linspace(0, 1, n), torch.linspace(0, 1, n), indexing="ij")
template = torch.stack([gx, gy, torch.zeros_like(gx)], -1).reshape(-1, 3)
edges = []
for r in range(n):
    for c in range(n):
        v = r * n + c
        if c + 1 < n:
            edges.append((v, v + 1))
        if r + 1 < n:
            edges.append((v, v + n))
edges = torch.tensor(edges)

target = template.clone()
target[:, 2] = 0.2 * torch.sin(3 * target[:, 0] + torch.rand(1) * 3) * torch.cos(2 * target[:, 1])

delta = torch.zeros_like(template, requires_grad=True)
opt = torch.optim.Adam([delta], lr=0.01)


def edge_loss(verts):
    e = verts[edges[:, 0]] - verts[edges[:, 1]]
    length = (e ** 2).sum(1)
    rest = ((template[edges[:, 0]] - template[edges[:, 1]]) ** 2).sum(1)
    return torch.sqrt((length - rest) ** 2).mean()


losses = []
for step in range(200):
    verts = template + delta
    loss = ((verts - target) ** 2).sum(1).mean() + 0.1 * edge_loss(verts)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")

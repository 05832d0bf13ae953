"""Fitting a textured mesh to silhouettes with a differentiable renderer (camera look-at)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def look_at(vertices, eye, at=None, up=None):
    device = vertices.device
    if at is None:
        at = torch.tensor([0.0, 0.0, 0.0], dtype=torch.float32)
    if up is None:
        up = torch.tensor([0.0, 1.0, 0.0], dtype=torch.float32)
    if isinstance(eye, (list, tuple)):
        eye = torch.tensor(eye, dtype=torch.float32)
    eye = eye.to(device)
    at = at.to(device)
    up.to(device)  # expect: tensor-op-result-discarded
    batch_size = vertices.shape[0]
    if eye.ndimension() == 1:
        eye = eye[None, :].repeat(batch_size, 1)
    if at.ndimension() == 1:
        at = at[None, :].repeat(batch_size, 1)
    if up.ndimension() == 1:
        up = up[None, :].repeat(batch_size, 1)
    z_axis = F.normalize(at - eye, eps=1e-5)
    x_axis = F.normalize(torch.cross(up, z_axis, dim=1), eps=1e-5)
    y_axis = F.normalize(torch.cross(z_axis, x_axis, dim=1), eps=1e-5)
    r = torch.cat((x_axis[:, None, :], y_axis[:, None, :], z_axis[:, None, :]), dim=1)
    if vertices.shape != eye.shape:
        eye = eye[:, None, :]
    return torch.matmul(vertices - eye, r.transpose(1, 2))


class MeshFitter(nn.Module):
    def __init__(self, vertices, faces, rasterize):
        super().__init__()
        self.vertices = nn.Parameter(vertices[None])
        self.register_buffer("faces", faces[None])
        self.rasterize = rasterize

    def forward(self, eye):
        v = look_at(self.vertices, eye)
        return self.rasterize(v, self.faces)


def fit(model, target_silhouettes, eyes, steps=300):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for i in range(steps):
        eye = eyes[i % len(eyes)]
        opt.zero_grad()
        image = model(eye)
        loss = ((image - target_silhouettes[i % len(eyes)]) ** 2).sum()
        loss.backward()
        opt.step()
    return model

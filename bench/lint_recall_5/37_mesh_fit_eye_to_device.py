# Source: https://github.com/daniilidis-group/neural_renderer/pull/52
# Pitfall: the camera "look" transform moves its eye/direction tensors with eye.to(device) as a statement;
#          torch.Tensor.to is not in-place, so the tensors stay where they were and the math mixes devices.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def look(vertices, eye, direction=None, up=None):
    device = vertices.device
    if direction is None:
        direction = torch.tensor([0.0, 0.0, 1.0])
    if up is None:
        up = torch.tensor([0.0, 1.0, 0.0])
    eye.to(device)  # expect: tensor-op-result-discarded
    direction = direction.to(device)
    up = up.to(device)
    z = F.normalize(direction, dim=0)
    x = F.normalize(torch.cross(up, z, dim=0), dim=0)
    y = F.normalize(torch.cross(z, x, dim=0), dim=0)
    rot = torch.stack([x, y, z], dim=0)
    return (vertices - eye) @ rot.t()


class MeshFitter(nn.Module):
    def __init__(self, n_verts=500):
        super().__init__()
        self.offsets = nn.Parameter(torch.zeros(n_verts, 3))

    def forward(self, base_vertices, eye):
        return look(base_vertices + self.offsets, eye)


if __name__ == "__main__":
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    base = torch.randn(500, 3, device=dev)
    target = torch.randn(500, 3, device=dev)
    fitter = MeshFitter().to(dev)
    opt = torch.optim.Adam(fitter.parameters(), lr=1e-2)
    cam = torch.tensor([0.0, 0.0, -2.7])
    for it in range(50):
        opt.zero_grad()
        loss = F.mse_loss(fitter(base, cam)[:, :2], target[:, :2])
        loss.backward()
        opt.step()

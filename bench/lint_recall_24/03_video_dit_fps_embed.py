"""Timestep / fps conditioning block of a small video diffusion transformer."""
import math

import torch
from torch import nn


def sinusoidal(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=t.device) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([args.cos(), args.sin()], dim=-1)


class ConditioningBlock(nn.Module):
    def __init__(self, dim=256):
        super().__init__()
        self.dim = dim
        self.time_mlp = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim * 6))
        self.fps_embedding = nn.Embedding(2, dim)
        self.fps_projection = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim * 6))

    def forward(self, hidden_states, timestep, fps=None):
        timestep_proj = self.time_mlp(sinusoidal(timestep, self.dim).to(hidden_states.dtype))
        if fps is not None:
            fps = torch.as_tensor(fps, dtype=torch.long, device=hidden_states.device)
            fps_emb = self.fps_embedding(fps).float()
            timestep_proj = timestep_proj.to(fps_emb.dtype)
            timestep_proj = timestep_proj + self.fps_projection(fps_emb)
            timestep_proj.to(hidden_states.dtype)  # expect: tensor-op-result-discarded
        return timestep_proj.unflatten(1, (6, -1))


if __name__ == "__main__":
    block = ConditioningBlock()
    h = torch.randn(2, 16, 256, dtype=torch.bfloat16)
    out = block(h, torch.tensor([10, 500]), fps=[0, 1])
    print(out.shape, out.dtype)

"""Equivariant-style graph attention: per-edge scores normalised over incoming edges."""
import torch
import torch.nn as nn


def scatter_mean(src, index, dim_size):
    out = torch.zeros(dim_size, *src.shape[1:], device=src.device, dtype=src.dtype)
    count = torch.zeros(dim_size, device=src.device, dtype=src.dtype)
    out.index_add_(0, index, src)
    count.index_add_(0, index, torch.ones_like(index, dtype=src.dtype))
    return out / count.clamp(min=1).view(-1, *([1] * (src.dim() - 1)))


def scatter_sum(src, index, dim_size):
    out = torch.zeros(dim_size, *src.shape[1:], device=src.device, dtype=src.dtype)
    return out.index_add_(0, index, src)


class GraphAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.scale = dim ** -0.5

    def forward(self, x, edge_index):
        src, dst = edge_index
        N = x.size(0)
        q = self.q(x)[dst]
        k = self.k(x)[src]
        v = self.v(x)[src]
        exp = ((q * k).sum(dim=-1) * self.scale).exp()  # expect: unshifted-softmax
        z = scatter_mean(exp, dst, N)
        alpha = exp / z[dst]
        return scatter_sum(alpha.unsqueeze(-1) * v, dst, N)


def train_step(model, head, optimizer, batch):
    optimizer.zero_grad()
    h = model(batch.x, batch.edge_index)
    loss = nn.functional.mse_loss(head(h).squeeze(-1), batch.y)
    loss.backward()
    optimizer.step()
    return loss.item()

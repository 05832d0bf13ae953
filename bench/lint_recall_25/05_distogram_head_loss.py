"""Pair-representation distogram head trained with a binned soft cross-entropy (structure model)."""
import torch
import torch.nn as nn


def softmax_cross_entropy(logits, labels):
    loss = -1 * torch.sum(
        labels * torch.nn.functional.log_softmax(logits),  # expect: softmax-without-dim
        dim=-1,
    )
    return loss


def distogram_loss(logits, pseudo_beta, pseudo_beta_mask, min_bin=2.3125, max_bin=21.6875,
                   no_bins=64, eps=1e-6):
    boundaries = torch.linspace(min_bin, max_bin, no_bins - 1, device=logits.device) ** 2
    dists = torch.sum((pseudo_beta[..., None, :] - pseudo_beta[..., None, :, :]) ** 2, dim=-1, keepdim=True)
    true_bins = torch.sum(dists > boundaries, dim=-1)
    errors = softmax_cross_entropy(logits, torch.nn.functional.one_hot(true_bins, no_bins).float())
    square_mask = pseudo_beta_mask[..., None] * pseudo_beta_mask[..., None, :]
    denom = eps + torch.sum(square_mask, dim=(-1, -2))
    mean = torch.sum(errors * square_mask, dim=-1) / denom[..., None]
    return torch.sum(mean, dim=-1).mean()


class DistogramHead(nn.Module):
    def __init__(self, c_z=64, no_bins=64):
        super().__init__()
        self.linear = nn.Linear(c_z, no_bins)

    def forward(self, z):
        logits = self.linear(z)
        return logits + logits.transpose(-2, -3)


class PairStack(nn.Module):
    def __init__(self, c_z=64):
        super().__init__()
        self.norm = nn.LayerNorm(c_z)
        self.mlp = nn.Sequential(nn.Linear(c_z, 4 * c_z), nn.ReLU(), nn.Linear(4 * c_z, c_z))

    def forward(self, z):
        return z + self.mlp(self.norm(z))


def train(steps=100, n_res=48, c_z=64, batch=2):
    trunk = PairStack(c_z)
    head = DistogramHead(c_z)
    params = list(trunk.parameters()) + list(head.parameters())
    opt = torch.optim.Adam(params, lr=1e-3)
    for step in range(steps):
        z = torch.randn(batch, n_res, n_res, c_z)
        coords = 10 * torch.randn(batch, n_res, 3)
        mask = (torch.rand(batch, n_res) > 0.1).float()
        loss = distogram_loss(head(trunk(z)), coords, mask)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 0.1)
        opt.step()
        if step % 10 == 0:
            print(f"step {step}: distogram loss {loss.item():.3f}")


if __name__ == "__main__":
    train()

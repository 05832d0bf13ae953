"""CapsNet dynamic routing between primary and digit capsules."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def squash(s, dim=-1):
    sq = (s ** 2).sum(dim=dim, keepdim=True)
    return sq / (1 + sq) * s / torch.sqrt(sq + 1e-8)


class DigitCaps(nn.Module):
    def __init__(self, in_caps=1152, in_dim=8, out_caps=10, out_dim=16, routing_iters=3):
        super().__init__()
        self.in_caps, self.out_caps = in_caps, out_caps
        self.routing_iters = routing_iters
        self.W = nn.Parameter(0.01 * torch.randn(1, in_caps, out_caps, out_dim, in_dim))

    def forward(self, u):
        batch_size = u.size(0)
        u = u.unsqueeze(2).unsqueeze(4)
        u_hat = torch.matmul(self.W, u).squeeze(-1)
        b_ij = torch.zeros(self.in_caps, self.out_caps, 1, device=u.device)
        for it in range(self.routing_iters):
            c_ij = F.softmax(b_ij.unsqueeze(0))  # expect: softmax-without-dim
            s_j = (c_ij * u_hat).sum(dim=1, keepdim=True)
            v_j = squash(s_j)
            if it < self.routing_iters - 1:
                a_ij = (u_hat * v_j).sum(dim=-1, keepdim=True).mean(dim=0)
                b_ij = b_ij + a_ij
        return v_j.squeeze(1)


def margin_loss(v, labels, m_pos=0.9, m_neg=0.1, lam=0.5):
    lengths = v.norm(dim=-1)
    t = F.one_hot(labels, num_classes=lengths.size(1)).float()
    loss = t * F.relu(m_pos - lengths) ** 2 + lam * (1 - t) * F.relu(lengths - m_neg) ** 2
    return loss.sum(dim=1).mean()

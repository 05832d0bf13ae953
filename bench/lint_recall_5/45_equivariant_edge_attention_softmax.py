# Source: https://github.com/prescient-design/e3tools/pull/3
# Pitfall: the graph attention layer normalises edge scores with a hand-written scatter softmax, exp(score)
#          divided by the per-node sum, without subtracting the per-node max; large scores overflow to inf -> NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def scatter_sum(src, index, num_nodes):
    out = torch.zeros(num_nodes, *src.shape[1:], dtype=src.dtype, device=src.device)
    return out.index_add_(0, index, src)


def edge_softmax(scores, dst, num_nodes):
    exp_scores = torch.exp(scores)  # expect: unshifted-softmax
    denom = scatter_sum(exp_scores, dst, num_nodes)
    return exp_scores / denom[dst]


class EdgeAttention(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, h, edge_index):
        src, dst = edge_index
        scores = (self.q(h)[dst] * self.k(h)[src]).sum(-1)
        alpha = edge_softmax(scores, dst, h.shape[0])
        msg = alpha.unsqueeze(-1) * self.v(h)[src]
        return h + self.out(scatter_sum(msg, dst, h.shape[0]))


if __name__ == "__main__":
    n_nodes, n_edges = 50, 300
    h = torch.randn(n_nodes, 32)
    edge_index = torch.randint(0, n_nodes, (2, n_edges))
    target = torch.randn(n_nodes, 32)
    layer = EdgeAttention()
    opt = torch.optim.Adam(layer.parameters(), lr=1e-3)
    for step in range(20):
        opt.zero_grad()
        loss = nn.functional.mse_loss(layer(h, edge_index), target)
        loss.backward()
        opt.step()
    print(loss.item())

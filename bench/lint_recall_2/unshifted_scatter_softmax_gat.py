# Source: https://github.com/pyg-team/pytorch_geometric/issues/53
# Pitfall: The per-neighbourhood softmax used by the graph attention layer exponentiates the raw attention logits and divides by their scattered sum without subtracting the group maximum; large logits overflow to inf and GAT training produces NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def neighbourhood_softmax(src, index, num_nodes):
    out = src.exp()  # expect: unshifted-softmax
    denom = torch.zeros(num_nodes, dtype=src.dtype, device=src.device).index_add_(0, index, out)
    return out / (denom[index] + 1e-16)


class SimpleGATLayer(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.att = nn.Parameter(torch.randn(2 * out_dim) * 0.1)

    def forward(self, x, edge_index):
        h = self.lin(x)
        src, dst = edge_index
        logits = F.leaky_relu((torch.cat([h[src], h[dst]], dim=-1) * self.att).sum(-1), 0.2)
        alpha = neighbourhood_softmax(logits, dst, x.size(0))
        alpha = F.dropout(alpha, p=0.6, training=self.training)
        out = torch.zeros_like(h).index_add_(0, dst, alpha.unsqueeze(-1) * h[src])
        return out

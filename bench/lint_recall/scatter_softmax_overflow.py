# Source: https://github.com/pyg-team/pytorch_geometric/issues/53
# Pitfall: a grouped (scatter) softmax written with exp() of the raw scores: a large score
# overflows to inf and inf/inf gives NaN attention weights (GAT training went NaN).
# Reproduced in our own words, not the original code.
import torch


def group_softmax(src, index, num_nodes):
    out = src.exp()
    denom = torch.zeros(num_nodes, dtype=out.dtype).index_add_(0, index, out)
    return out / denom[index]  # expect: unshifted-softmax

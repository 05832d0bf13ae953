# Source: https://github.com/zhuzilin/ring-flash-attention/pull/30
# Pitfall: merging two blocks' log-sum-exp values as lse + log(1 + exp(block_lse - lse)) overflows when the
#   block's lse is much larger; exp gives inf and the attention output and gradients become inf/NaN.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F


def merge_block(out, lse, block_out, block_lse):
    block_lse = block_lse.transpose(-2, -1).unsqueeze(-1)
    if out is None:
        return block_out.float(), block_lse
    new_lse = lse + torch.log(1 + torch.exp(block_lse - lse))  # expect: unshifted-logsumexp
    out = torch.exp(lse - new_lse) * out + torch.exp(block_lse - new_lse) * block_out
    return out, new_lse


def blockwise_attention(q, k_blocks, v_blocks, scale):
    out, lse = None, None
    for k, v in zip(k_blocks, v_blocks):
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) * scale
        block_lse = torch.logsumexp(scores, dim=-1)
        block_out = torch.einsum("bhqk,bhkd->bhqd", F.softmax(scores, dim=-1), v).transpose(1, 2)
        out, lse = merge_block(out, lse, block_out, block_lse)
    return out

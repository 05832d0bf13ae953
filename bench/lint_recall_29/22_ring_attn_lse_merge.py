"""Ring attention (sequence parallel): merge partial attention outputs block by block."""
import torch
import torch.distributed as dist


@torch.jit.script
def _update_out_and_lse(out: torch.Tensor, lse: torch.Tensor, block_out: torch.Tensor,
                        block_lse: torch.Tensor):
    block_out = block_out.to(torch.float32)
    block_lse = block_lse.transpose(-2, -1).unsqueeze(dim=-1)
    new_lse = lse + torch.log(1 + torch.exp(block_lse - lse))  # expect: unshifted-logsumexp
    out = torch.exp(lse - new_lse) * out + torch.exp(block_lse - new_lse) * block_out
    return out, new_lse


def update_out_and_lse(out, lse, block_out, block_lse):
    if out is None:
        out = block_out.to(torch.float32)
        lse = block_lse.transpose(-2, -1).unsqueeze(dim=-1)
        return out, lse
    return _update_out_and_lse(out, lse, block_out, block_lse)


def ring_forward(local_attn, q, k, v, group=None):
    world = dist.get_world_size(group)
    rank = dist.get_rank(group)
    out, lse = None, None
    next_k, next_v = k, v
    for step in range(world):
        if step + 1 != world:
            send_k, send_v = next_k.contiguous(), next_v.contiguous()
            recv_k, recv_v = torch.empty_like(send_k), torch.empty_like(send_v)
            reqs = dist.batch_isend_irecv([
                dist.P2POp(dist.isend, send_k, (rank + 1) % world, group),
                dist.P2POp(dist.irecv, recv_k, (rank - 1) % world, group),
                dist.P2POp(dist.isend, send_v, (rank + 1) % world, group),
                dist.P2POp(dist.irecv, recv_v, (rank - 1) % world, group),
            ])
        block_out, block_lse = local_attn(q, next_k, next_v, causal=(step == 0))
        out, lse = update_out_and_lse(out, lse, block_out, block_lse)
        if step + 1 != world:
            for req in reqs:
                req.wait()
            next_k, next_v = recv_k, recv_v
    return out.to(q.dtype), lse.squeeze(dim=-1).transpose(1, 2)

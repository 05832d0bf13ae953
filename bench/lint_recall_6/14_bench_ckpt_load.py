# Source: https://github.com/facebookresearch/xformers/pull/1087
# Pitfall: a benchmark/training helper restores a saved state dict with a bare torch.load(path); without
#   weights_only=True a tampered checkpoint can run code while it is unpickled.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


def make_block(dim=128, heads=4):
    return nn.TransformerEncoderLayer(dim, heads, dim_feedforward=4 * dim, batch_first=True)


def restore(block, ckpt_path):
    state = torch.load(ckpt_path)  # expect: torch-load-unsafe
    block.load_state_dict(state)
    return block


def finetune(block, batches, lr=1e-4):
    opt = torch.optim.AdamW(block.parameters(), lr=lr)
    block.train()
    last = 0.0
    for x, y in batches:
        opt.zero_grad()
        loss = nn.functional.mse_loss(block(x), y)
        loss.backward()
        opt.step()
        last = loss.item()
    return last

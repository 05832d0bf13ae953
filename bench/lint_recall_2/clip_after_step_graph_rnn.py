# Source: https://github.com/VGraphRNN/VGRNN/issues/4
# Pitfall: clip_grad_norm is called after opt.step(), so the update has already used the unclipped gradients and the clipping has no effect (the next iteration zeroes them anyway).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def train_vgrnn(model, snapshots, adj_orig, epochs=1000, lr=1e-2, clip=10.0, seq_start=0, seq_end=62):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for k in range(epochs):
        model.train()
        opt.zero_grad()
        kld_loss, nll_loss, _, _, hidden_st = model(snapshots[seq_start:seq_end], adj_orig[seq_start:seq_end])
        loss = kld_loss + nll_loss
        loss.backward()
        opt.step()
        nn.utils.clip_grad_norm_(model.parameters(), clip)  # expect: clip-after-step
        if k % 10 == 0:
            print(f"epoch {k} kld {kld_loss.item():.4f} nll {nll_loss.item():.4f}")
    return model

# Source: https://github.com/rballester/tntorch/pull/19
# Pitfall: While fitting a tensor decomposition the loop appends each differentiable loss to a history
# list; every entry keeps its full graph, and 1000 iterations froze a 12 GB machine.
# Reproduced in our own words, not the original code.
import torch


def fit_cores(cores, target, iters=1000, lr=1e-2, tol=1e-5):
    params = [c.requires_grad_() for c in cores]
    optimizer = torch.optim.Adam(params, lr=lr)
    loss_history = []
    for it in range(iters):
        optimizer.zero_grad()
        recon = cores[0]
        for core in cores[1:]:
            recon = torch.tensordot(recon, core, dims=([-1], [0]))
        loss = torch.mean((recon.squeeze() - target) ** 2)
        loss.backward()
        optimizer.step()
        loss_history.append(loss)  # expect: running-loss-keeps-graph
        if it > 10 and abs(loss_history[-2].item() - loss.item()) < tol:
            break
    return cores, loss_history

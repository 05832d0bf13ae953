# Source: https://github.com/toinsson/pysdtw/issues/2
# Pitfall: the sequence being optimised is created with requires_grad=True and then sent
#   .to(device); the optimiser holds a non-leaf copy whose .grad is never populated.
# Reproduced in our own words, not the original code.
import torch


def pairwise_sq_dist(x, y):
    return (x.unsqueeze(2) - y.unsqueeze(1)).pow(2).sum(-1)


def soft_dtw(x, y, gamma=1.0):
    d = pairwise_sq_dist(x, y)
    b, n, m = d.shape
    r = torch.full((b, n + 1, m + 1), float("inf"), device=d.device)
    r[:, 0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            prev = torch.stack([r[:, i - 1, j - 1], r[:, i - 1, j], r[:, i, j - 1]], dim=-1)
            r[:, i, j] = d[:, i - 1, j - 1] - gamma * torch.logsumexp(-prev / gamma, dim=-1)
    return r[:, n, m]


def fit_barycenter(references, steps=200, lr=0.05):
    device = torch.device("cuda")
    references = references.to(device)
    barycenter = torch.rand((1, references.size(1), references.size(2)), requires_grad=True).to(device)  # expect: non-leaf-parameter
    optimizer = torch.optim.Adam([barycenter], lr=lr)
    for step in range(steps):
        optimizer.zero_grad()
        loss = soft_dtw(barycenter.expand_as(references), references).mean()
        loss.backward()
        optimizer.step()
    return barycenter.detach()

# Source: https://github.com/pytorch/pytorch/issues/8287
# Pitfall: The tensor whose gradient is needed is created with requires_grad=True on the CPU and moved
# with .cuda(0) in the same expression; the moved copy is not a leaf, so its .grad is never filled.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def split_backward(device="cuda:0"):
    x = torch.randn(2, 2, requires_grad=True).cuda(0)  # expect: non-leaf-parameter
    target = torch.randn(2, 2, device=device)
    front = nn.Sequential(*[nn.Linear(2, 2) for _ in range(3)]).to(device)
    back = nn.Sequential(*[nn.Linear(2, 2) for _ in range(3)]).to(device)
    mse = nn.MSELoss()
    h1 = front(x)
    h2 = h1.detach().requires_grad_()
    out = back(h2)
    loss = mse(out, target)
    loss.backward()
    h1.backward(gradient=h2.grad)
    return x.grad

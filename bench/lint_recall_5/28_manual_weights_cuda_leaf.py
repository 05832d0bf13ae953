# Source: https://github.com/pytorch/pytorch/issues/13113
# Pitfall: a hand-written regression creates its weights with requires_grad=True and then moves them with
#          .cuda(); the moved tensor is a non-leaf copy, so its .grad stays None and the optimizer never updates it.
# Reproduced in our own words, not the original code.
import torch


def make_data(n=256, d=8):
    x = torch.randn(n, d)
    true_w = torch.randn(d, 1)
    return x, x @ true_w + 0.1 * torch.randn(n, 1)


def fit(steps=200, lr=0.05):
    x, y = make_data()
    x, y = x.cuda(), y.cuda()
    w = torch.zeros(8, 1, requires_grad=True).cuda()  # expect: non-leaf-parameter
    b = torch.zeros(1, device="cuda", requires_grad=True)
    for step in range(steps):
        pred = x @ w + b
        loss = ((pred - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            for p in (w, b):
                if p.grad is not None:
                    p -= lr * p.grad
                    p.grad.zero_()
        if step % 50 == 0:
            print(step, loss.item())


if __name__ == "__main__":
    fit()

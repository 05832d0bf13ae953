"""Linear regression with hand-written gradient descent on autograd tensors."""
import numpy as np
import torch


def make_data(n=100, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(n, 1)).astype(np.float32)
    y = 3.0 * x + 0.5 + 0.1 * rng.standard_normal((n, 1)).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(y)


def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad


def fit(x, y, lr=1e-2, iters=500):
    w = torch.randn(1, 1, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    for it in range(iters):
        y_pred = x.mm(w) + b
        loss = ((y_pred - y) ** 2).mean()
        loss.backward()  # expect: gradients-never-cleared
        sgd_step([w, b], lr)
        if it % 100 == 0:
            print(f"iter {it}: loss {loss.item():.4f} w={w.item():.3f} b={b.item():.3f}")
    return w.detach(), b.detach()


if __name__ == "__main__":
    x, y = make_data()
    print(fit(x, y))

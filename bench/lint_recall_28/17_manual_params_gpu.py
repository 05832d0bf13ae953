"""Two-layer network written with raw tensors, trained by hand on the GPU."""
import torch


def make_params(d_in, d_hidden, d_out, device):
    w1 = torch.randn(d_in, d_hidden, requires_grad=True).to(device)  # expect: non-leaf-parameter
    b1 = torch.zeros(d_hidden, device=device, requires_grad=True)
    w2 = torch.randn(d_hidden, d_out, device=device, requires_grad=True)
    b2 = torch.zeros(d_out, device=device, requires_grad=True)
    return [w1, b1, w2, b2]


def forward(x, params):
    w1, b1, w2, b2 = params
    h = torch.relu(x @ w1 + b1)
    return h @ w2 + b2


def fit(x, y, params, lr=1e-3, steps=200):
    for step in range(steps):
        pred = forward(x, params)
        loss = ((pred - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            for p in params:
                if p.grad is not None:
                    p -= lr * p.grad
                    p.grad.zero_()
        if step % 50 == 0:
            print(step, loss.item())


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    inputs = torch.randn(64, 10, device=dev)
    targets = torch.randn(64, 1, device=dev)
    fit(inputs, targets, make_params(10, 32, 1, dev))

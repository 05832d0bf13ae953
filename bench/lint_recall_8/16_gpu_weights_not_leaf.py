# Source: https://discuss.pytorch.org/t/how-to-define-a-leaf-tensor-in-pytorch-0-4-1/28461
# Pitfall: hand-made weights are created with requires_grad=True and then moved with .cuda(); the
# moved tensor is the output of a copy op, not a leaf, so its .grad stays None and it never learns.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F

device = torch.device("cuda")


def make_params(n_in, n_hidden, n_out):
    w1 = torch.randn(n_in, n_hidden, requires_grad=True).cuda()  # expect: non-leaf-parameter
    b1 = torch.zeros(n_hidden, device=device, requires_grad=True)
    w2 = torch.randn(n_hidden, n_out, device=device, requires_grad=True)
    b2 = torch.zeros(n_out, device=device, requires_grad=True)
    return [w1, b1, w2, b2]


def forward(params, x):
    w1, b1, w2, b2 = params
    return torch.relu(x @ w1 + b1) @ w2 + b2


def fit(xs, ys, epochs=50, lr=0.05):
    params = make_params(xs.size(1), 32, int(ys.max()) + 1)
    for epoch in range(epochs):
        logits = forward(params, xs)
        loss = F.cross_entropy(logits, ys)
        loss.backward()
        with torch.no_grad():
            for p in params:
                if p.grad is not None:
                    p -= lr * p.grad
                    p.grad.zero_()
        if epoch % 10 == 0:
            print(epoch, loss.item())
    return params


if __name__ == "__main__":
    X = torch.randn(256, 4, device=device)
    Y = (X[:, 0] + X[:, 1] > 0).long()
    fit(X, Y)

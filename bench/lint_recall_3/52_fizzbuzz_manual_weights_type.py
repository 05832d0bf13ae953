# Source: https://github.com/hhsecond/HandsOnDeepLearningWithPytorch/issues/2
# Pitfall: The hand-written network creates its weights with requires_grad=True and then casts them with
# .type(torch.cuda.FloatTensor); the cast result is not a leaf, so w.grad stays None and nothing learns.
# Reproduced in our own words, not the original code.
import torch

use_cuda = torch.cuda.is_available()
dtype = torch.cuda.FloatTensor if use_cuda else torch.FloatTensor


def train_fizbuz(x, y, input_size=10, hidden_size=100, output_size=4, epochs=500, lr=0.01):
    w1 = torch.randn(input_size, hidden_size, requires_grad=True).type(dtype)  # expect: non-leaf-parameter
    b1 = torch.zeros(1, hidden_size, requires_grad=True, device=x.device)
    w2 = torch.randn(hidden_size, output_size, device=x.device, requires_grad=True)
    b2 = torch.zeros(1, output_size, requires_grad=True, device=x.device)
    for epoch in range(epochs):
        hidden = torch.sigmoid(x @ w1 + b1)
        out = torch.sigmoid(hidden @ w2 + b2)
        loss = ((out - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            for p in (w1, b1, w2, b2):
                p -= lr * p.grad
                p.grad.zero_()
    return w1, b1, w2, b2

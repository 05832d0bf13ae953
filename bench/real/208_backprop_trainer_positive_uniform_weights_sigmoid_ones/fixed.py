"""From-scratch backprop trainer -- fixed along the lines of the answer: the uniform initial weights
are centred on zero and scaled by 2/sqrt(fan_in), so the weighted sum entering each unit stays of
order one and the sigmoid units start in their responsive range instead of at 1.0; nothing else
changed.
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def init_weights(fan_in, fan_out):
    return (torch.rand(fan_in, fan_out) * 2 - 1) * 2 / fan_in ** 0.5


class Trainer:
    def __init__(self, sizes, lr):
        self.W = [init_weights(a, b).requires_grad_() for a, b in zip(sizes[:-1], sizes[1:])]
        self.b = [torch.zeros(b, requires_grad=True) for b in sizes[1:]]
        self.lr = lr

    def forward(self, x):
        for W, b in zip(self.W, self.b):
            x = torch.sigmoid(x @ W + b)
        return x

    def train_batch(self, x, t):
        out = self.forward(x)
        loss = ((t - out) ** 2).sum(1).mean()
        grads = torch.autograd.grad(loss, self.W + self.b)
        with torch.no_grad():
            for p, g in zip(self.W + self.b, grads):
                p -= self.lr * g
        return loss.item()

    def fit(self, X, T, epochs, batch):
        for epoch in range(epochs):
            order = torch.randperm(len(X))
            losses = [self.train_batch(X[order[i:i + batch]], T[order[i:i + batch]])
                      for i in range(0, len(X), batch)]
            self.last = sum(losses) / len(losses)
            if epoch % 5 == 0:
                print(f"epoch {epoch} mse {self.last:.4f}")
        return self.last


protos = torch.rand(3, 12)
y = torch.randint(0, 3, (1800,))
X = (protos[y] + 0.25 * torch.randn(1800, 12)).clamp(0, 1)
T = torch.eye(3)[y]

net = Trainer([12, 30, 20, 3], lr=0.5)
final = net.fit(X[:1500], T[:1500], epochs=30, batch=50)
with torch.no_grad():
    acc = (net.forward(X[1500:]).argmax(1) == y[1500:]).float().mean().item()
print(f"final_loss={final:.6g} acc={acc:.4f}")

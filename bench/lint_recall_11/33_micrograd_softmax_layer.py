"""Tiny MLP classifier with a hand-written softmax layer for reporting class probabilities."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SoftmaxLayer(nn.Module):
    def forward(self, x):
        out = x.exp() / x.exp().sum(-1).unsqueeze(-1)  # expect: unshifted-softmax
        return out


class MLP(nn.Module):
    def __init__(self, nin, nouts):
        super().__init__()
        sizes = [nin] + list(nouts)
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.softmax = SoftmaxLayer()

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = F.relu(x)
        return x

    @torch.no_grad()
    def predict_proba(self, x):
        self.eval()
        return self.softmax(self.forward(x))


def train(model, X, y, steps=200, lr=0.05):
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    for k in range(steps):
        model.train()
        logits = model(X)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if k % 50 == 0:
            acc = (model.predict_proba(X).argmax(-1) == y).float().mean().item()
            print(f"step {k} loss {loss.item():.4f} accuracy {acc:.2%}")

"""Custom layer computes with self.weight.data / self.bias.data: no gradient reaches its parameters.

Source: https://github.com/d2l-ai/d2l-en/pull/2600 (Fix pytorch version of custom-layer to allow auto grad)
Report: in the book's custom-layer example, MyLinear.forward uses `torch.matmul(X, self.weight.data)
+ self.bias.data`; the fix: "self.weight and self.bias should be used instead of self.weight.data
and self.bias.data to make sure that BP works for weight and bias". Reproduced with two MyLinear
hidden layers under an nn.Linear classifier head, trained d2l-style (SGD, reduction='none'):
only the head learns, on top of frozen random features.

expect: params-not-updated
symptom: final-loss-ratio 1.5
batch: 2
"""
import argparse

import torch
import torch.nn.functional as F
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)


class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units) / in_units ** 0.5)
        self.bias = nn.Parameter(torch.zeros(units))

    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)


# 4 classes defined by a nonlinear function of 2 of the 20 features
n = 3000
X = torch.randn(n, 20)
y = ((X[:, 0] * X[:, 1] > 0).long() * 2 + (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).long())
train_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X[:2500], y[:2500]), batch_size=50, shuffle=True)

net = nn.Sequential(MyLinear(20, 32), MyLinear(32, 32), nn.Linear(32, 4))
loss = nn.CrossEntropyLoss(reduction="none")
trainer = torch.optim.SGD(net.parameters(), lr=0.2, momentum=0.9)
losses = []
for epoch in range(15):
    for Xb, yb in train_iter:
        l = loss(net(Xb), yb)
        trainer.zero_grad()
        l.mean().backward()
        trainer.step()
        losses.append(l.mean().item())
with torch.no_grad():
    acc = (net(X[2500:]).argmax(1) == y[2500:]).float().mean().item()
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={acc:.4f}")

"""Keras-style SimpleRNN(activation="relu") sequence regressor trained with SGD and no clipnorm: a few steps produce huge back-propagated gradients, the weights jump and the loss becomes NaN.

Source: https://github.com/keras-team/keras/issues/5127 (why do the loss equal nan when i don't use clipnorm ?)
Report: "i know that clipnorm fix this issue and i know that clipnorm clip the big number of the
gradients but i want to know why the nan is produced? why do i see loss=nan when i don't use
clipping of the gradient?"; answer: "the gradient gets really really large, which changes the
weight values a LOT... and this makes the loss NaN because it's usually too large of a number".
Reproduced in torch with Keras' defaults for the layer and optimizer (SimpleRNN with ReLU,
glorot-uniform input kernel, orthogonal recurrent kernel, zero bias; Dense(1) on the last state;
SGD(lr=0.01, momentum=0.9); MSE; fit with batch_size=32 for several epochs) on synthetic
120-step sensor sequences whose target is a weighted sum of the readings; `acc` is the share of
test sequences predicted within 0.5 of the target.

expect: exploding-gradient
symptom: nonfinite
batch: 6
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

T, D = 120, 4


def make(n):
    x = torch.randn(n, T, D)
    w = torch.linspace(0.2, 1.0, T).unsqueeze(-1) * torch.tensor([1.0, -0.5, 0.3, 0.0])
    y = (x * w).sum((1, 2)) / 6.0
    return x, y


class SimpleRNN(nn.Module):
    def __init__(self, units, input_dim):
        super().__init__()
        self.kernel = nn.Parameter(torch.empty(input_dim, units))
        self.recurrent_kernel = nn.Parameter(torch.empty(units, units))
        self.bias = nn.Parameter(torch.zeros(units))
        nn.init.xavier_uniform_(self.kernel)
        nn.init.orthogonal_(self.recurrent_kernel)

    def forward(self, x):
        h = torch.zeros(x.size(0), self.bias.numel())
        for t in range(x.size(1)):
            h = F.relu(x[:, t] @ self.kernel + h @ self.recurrent_kernel + self.bias)
        return h


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = SimpleRNN(64, D)
        self.dense = nn.Linear(64, 1)

    def forward(self, x):
        return self.dense(self.rnn(x)).squeeze(-1)


x_train, y_train = make(2000)
x_test, y_test = make(400)
model = Model()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
clipnorm = None
for epoch in range(10):
    perm = torch.randperm(len(y_train))
    total = 0.0
    for i in range(0, len(perm), 32):
        idx = perm[i:i + 32]
        loss = F.mse_loss(model(x_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        if clipnorm is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clipnorm)
        optimizer.step()
        total += loss.item() * len(idx)
    with torch.no_grad():
        pred = model(x_test)
        acc = ((pred - y_test).abs() < 0.5).float().mean().item()
    print(f"epoch {epoch} loss {total / len(y_train):.4f} test acc {acc:.4f}")
print(f"final_loss={total / len(y_train):.6g} acc={acc:.4f}")

"""Handwritten-digit classifier grown from a one-layer softmax notebook into a one-hidden-layer sigmoid MLP, keeping the notebook's habit of starting every weight matrix and bias at zero. With all weights equal, every hidden unit computes the same activation and receives the same gradient, so the hidden units stay identical copies of one another for the whole run: the 64-unit layer behaves like a single unit and the network cannot separate ten digit classes.

Source: https://github.com/wagonhelm/NaNmnist/issues/2 (Highly improper way of weight initialization)
Report: "initializing weights as zeroes, even as a beginner is highly improper way of initialization
... if every neuron in the network computes the same output, then they will also all compute the
same gradients during backpropagation and undergo the exact same parameter updates. In other words,
there is no source of asymmetry between neurons if their weights are initialized to be the same"
(the author: fine for a single-layer perceptron, "Deep nets definitely need random
initializations"). Reproduced with 6,000 synthetic 8x8 digit images (ten stroke templates with
jitter and pixel noise), an MLP 64-64-10 with sigmoid hidden units whose weights and biases are all
set to zero, SGD lr 0.5 on hand-sliced batches of 100, 15 epochs. The printed loss is the
cross-entropy on 2,000 held-out images, `acc` the accuracy there.

expect: bad-init
symptom: acc-below 0.5
batch: 18
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

strokes = (torch.rand(10, 8, 8) < 0.3).float()


def digits(n):
    y = torch.randint(0, 10, (n,))
    img = strokes[y]
    shift = torch.randint(-1, 2, (n,))
    img = torch.stack([torch.roll(im, int(s), dims=1) for im, s in zip(img, shift)])
    img = (img + 0.35 * torch.randn(n, 8, 8)).clamp(0, 1)
    return img.reshape(n, 64), y


X_train, y_train = digits(6000)
X_test, y_test = digits(2000)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(64, 64)
        self.out = nn.Linear(64, 10)
        for layer in (self.hidden, self.out):
            nn.init.zeros_(layer.weight)
            nn.init.zeros_(layer.bias)

    def forward(self, x):
        return self.out(torch.sigmoid(self.hidden(x)))


model = MLP()
opt = torch.optim.SGD(model.parameters(), lr=0.5)

for epoch in range(15):
    perm = torch.randperm(len(X_train))
    for i in range(0, len(perm), 100):
        idx = perm[i:i + 100]
        loss = F.cross_entropy(model(X_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss:.4f} acc {acc:.4f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

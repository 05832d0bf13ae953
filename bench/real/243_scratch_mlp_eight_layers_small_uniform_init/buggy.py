"""Deep fully connected digit classifier written "from scratch" (weight matrices as plain tensors,
eight ReLU layers of 64 units, softmax cross-entropy, plain minibatch SGD) whose weights are
initialised uniformly in [-0.05, 0.05] regardless of layer width. With 64 inputs per unit each
layer multiplies the signal -- and on the way back the gradient -- by roughly 0.2, so after eight
layers the activations reaching the classifier are about a million times smaller than the input and
the gradients reaching the first layers are vanishingly small: the loss sits at ln(10) and the
network predicts one class.

Source: https://github.com/SilasMarvin/dnns-from-scratch-in-zig/pull/7 (Use He weight initialization.)
Report: "this will allow you to go up to like 30 layers of depth with just this simple change,
otherwise you will see vanishing gradients at only 5 layers." Reproduced with 6,000 synthetic 8x8
digit images (10 stroke prototypes plus heavy noise), a 64-64x8-10 ReLU network with U(-0.05, 0.05)
weights and zero biases, SGD lr 0.1, batch 32, 5 epochs. The printed loss is the mean training
cross-entropy of the last epoch, `acc` the accuracy on 1,000 held-out images.

expect: vanishing-gradient
symptom: loss-above 2.0
batch: 14
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

DEPTH, WIDTH = 8, 64
prototypes = (torch.rand(10, 64) < 0.3).float()


def make_digits(n):
    y = torch.randint(0, 10, (n,))
    return (prototypes[y] + 0.9 * torch.randn(n, 64)).clamp(0, 1), y


def init_layer(fan_in, fan_out):
    w = torch.empty(fan_in, fan_out).uniform_(-0.05, 0.05)
    return w.requires_grad_(), torch.zeros(fan_out, requires_grad=True)


layers = [init_layer(64 if i == 0 else WIDTH, WIDTH) for i in range(DEPTH)] + [init_layer(WIDTH, 10)]
params = [p for layer in layers for p in layer]


def forward(x):
    for w, b in layers[:-1]:
        x = torch.relu(x @ w + b)
    w, b = layers[-1]
    return x @ w + b


X, Y = make_digits(6000)
Xte, Yte = make_digits(1000)
for epoch in range(5):
    perm, total = torch.randperm(len(X)), 0.0
    for i in range(0, len(X), 32):
        idx = perm[i:i + 32]
        loss = F.cross_entropy(forward(X[idx]), Y[idx])
        for p in params:
            p.grad = None
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= 0.1 * p.grad
        total += loss.item() * len(idx)
    train_loss = total / len(X)
    print(f"epoch {epoch} loss {train_loss:.4f}")

with torch.no_grad():
    acc = (forward(Xte).argmax(1) == Yte).float().mean().item()
print(f"final_loss={train_loss:.6g} acc={acc:.4f}")

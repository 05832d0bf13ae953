"""Homework-style two-layer sigmoid network written out by hand (explicit weight tensors, sigmoid
hidden and output units, squared error, full-batch gradient descent) for 24x24 binary glyph
images. The weights are drawn from a standard normal, N(0, 1), with no scaling by the number of
inputs: with 576 inputs a hidden pre-activation has a standard deviation of about 14, so nearly
every hidden unit sits at 0 or 1 for every image, its derivative s(1 - s) is ~0, and the hidden
layer cannot be trained -- only the output layer moves and the training error stays high.

Source: https://stats.stackexchange.com/questions/265453/how-to-deal-with-dead-neuron-in-neural-network-training (How to deal with dead neuron in neural network training)
Report: "I am required to train a neural network with sigmoid activation function to achieve 0
training error rate ... I have implemented the gradient descent algorithm and things seems fine,
but it never reaches 0% training error rate. I diagnosed it a bit and realize all the hidden layer
neuron are dead (their output is very close to 0 or 1), so there is no way I can update their
weights." Reproduced with 600 synthetic 24x24 glyphs (8 classes, each a random stroke template
with 8% of the pixels flipped), a 576-48-8 sigmoid network whose weights are torch.randn, biases
zero, squared error to one-hot targets, full-batch gradient descent lr 0.5 for 400 steps. The
printed loss is the final training MSE, `acc` the training accuracy (the homework's target).

expect: saturated-activation
symptom: acc-below 0.95
batch: 12
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

n, d, h, k = 600, 576, 48, 8
templates = (torch.rand(k, d) < 0.3).float()
y = torch.arange(n) % k
flip = (torch.rand(n, d) < 0.08).float()
X = (templates[y] - flip).abs()
T = torch.eye(k)[y]

W1 = torch.randn(d, h)
b1 = torch.zeros(h)
W2 = torch.randn(h, k)
b2 = torch.zeros(k)
params = [W1, b1, W2, b2]
for p in params:
    p.requires_grad_(True)

lr = 0.5
for step in range(400):
    hidden = torch.sigmoid(X @ W1 + b1)
    out = torch.sigmoid(hidden @ W2 + b2)
    loss = ((out - T) ** 2).sum(1).mean()
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
    if step % 50 == 0:
        print(f"step {step} mse {loss.item():.4f}")

with torch.no_grad():
    out = torch.sigmoid(torch.sigmoid(X @ W1 + b1) @ W2 + b2)
    acc = (out.argmax(1) == y).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")

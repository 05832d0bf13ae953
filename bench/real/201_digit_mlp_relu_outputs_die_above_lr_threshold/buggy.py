"""Digit classifier written as a plain one-hidden-layer perceptron (64 pixel inputs, 100 ReLU hidden units, 10 ReLU output units, MSE to one-hot targets, plain SGD with one example per step, weights drawn from a small normal) trained with a learning rate above the threshold the network tolerates: single large per-example updates push output units (and some hidden units) into the regime where their pre-activation is negative for every input -- a dead ReLU output can never score its class again and gets no gradient to recover -- so the network starts off fine and then "gives up" on several classes.

Source: https://imathworks.com/cv/solved-my-relu-network-fails-to-launch (Neural Networks – Troubleshooting ReLU Network Failures: My ReLU network fails to launch)
Report: "Fully-connected Multi-Layer Perceptron with Rectified Linear (ReLU) units (both hidden and
output layers), 1 hidden layer of 100 hidden units, trained with backprop on MNIST with
minibatch_size = 1 and MSE loss (to 1-hot target vector) ... if I set the learning rate above some
threshold ... my network starts off ok, then kind of just … gives up ... The problem is that output
units will sometimes get pushed into a regime where they are 'dead' – that is, not responsive to any
input." Reproduced with 3,000 synthetic 8x8 digit images (10 binary prototypes plus pixel noise,
clipped to [0, 1]), the network above with N(0, 0.1) weights and zero biases, SGD lr 1.0 on single
examples, 4 epochs. The printed loss is the mean training MSE of the last epoch, `acc` the
accuracy on 1,000 held-out images.

expect: dead-relu
symptom: acc-below 0.6
batch: 11
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

LR = 1.0
prototypes = (torch.rand(10, 64) < 0.35).float()


def make_digits(n):
    y = torch.randint(0, 10, (n,))
    return (prototypes[y] + 0.35 * torch.randn(n, 64)).clamp(0, 1), y


X_train, y_train = make_digits(3000)
X_test, y_test = make_digits(1000)
model = nn.Sequential(nn.Linear(64, 100), nn.ReLU(), nn.Linear(100, 10), nn.ReLU())
with torch.no_grad():
    for layer in (model[0], model[2]):
        layer.weight.normal_(0, 0.1)
        layer.bias.zero_()
opt = torch.optim.SGD(model.parameters(), lr=LR)
one_hot = torch.eye(10)

for epoch in range(4):
    total = 0.0
    for i in torch.randperm(len(X_train)).tolist():
        out = model(X_train[i:i + 1])
        loss = ((out - one_hot[y_train[i:i + 1]]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} mse {total / len(X_train):.4f}")

with torch.no_grad():
    acc = (model(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={total / len(X_train):.6g} acc={acc:.4f}")

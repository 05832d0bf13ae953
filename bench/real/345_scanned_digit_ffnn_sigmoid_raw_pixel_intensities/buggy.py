"""Digit recogniser written as a classic feed-forward network: 784 pixel inputs, 100 sigmoid hidden units, 10 sigmoid outputs, squared error to one-hot targets, SGD with learning rate 0.7 and momentum 0.5 (the settings of the report), mini-batches of 50 sliced by hand from a tensor. The scanned digits are fed as raw 0-255 grey levels: the pre-activations of every hidden unit are then hundreds of units away from zero and dominated by the bright paper background shared by all images, so each sigmoid is pinned at 0.0 or 1.0 for every image, the hidden layer outputs the same vector whatever the digit, the sigmoid derivatives are zero and the network never leaves its initial constant prediction.

Source: https://github.com/Swift-AI/Swift-AI/issues/11 (A bit puzzled about the results of using this FFNN)
Report: "I'm trying to train a FFNN with `784` inputs and `10` outputs, with `100` hidden nodes. Momentum
is `0.5` and learning rate `0.7`, error function `Default` and activation `Sigmoid`. ... all the items
give the same result ... Hidden output cache [1.0, 1.0, 1.0, ...] Output errors cache [-0.0, -0.0, ...]".
Reproduced with 6,000 synthetic 28x28 scans (bright paper around 200 grey levels, dark strokes from
10 digit templates, pixel noise), stored as 0-255 intensities and fed unscaled into the 784-100-10
sigmoid network above (PyTorch default init), 3 epochs. The printed loss is the squared error on
1,000 held-out scans, `acc` the accuracy there.

expect: saturated-activation
symptom: acc-below 0.4
batch: 21
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

templates = (torch.rand(10, 28, 28) < 0.25).float()


def scan(n):
    y = torch.randint(0, 10, (n,))
    ink = templates[y] * (0.6 + 0.4 * torch.rand(n, 1, 1))
    grey = 200 - 170 * ink + 12 * torch.randn(n, 28, 28)
    return grey.clamp(0, 255).round().reshape(n, 784), y


X_train, y_train = scan(6000)
X_test, y_test = scan(1000)
inputs_train, inputs_test = X_train, X_test

net = nn.Sequential(nn.Linear(784, 100), nn.Sigmoid(), nn.Linear(100, 10), nn.Sigmoid())
opt = torch.optim.SGD(net.parameters(), lr=0.7, momentum=0.5)
one_hot = torch.eye(10)

for epoch in range(3):
    order = torch.randperm(len(inputs_train))
    for i in range(0, len(order), 50):
        idx = order[i:i + 50]
        out = net(inputs_train[idx])
        loss = ((out - one_hot[y_train[idx]]) ** 2).sum(1).mean() / 2
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = net(inputs_test)
        test_loss = (((out - one_hot[y_test]) ** 2).sum(1).mean() / 2).item()
        acc = (out.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} test error {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

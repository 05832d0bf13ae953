"""Toy-problem check of a from-scratch deep-learning framework: a five-hidden-layer fully connected ReLU network (2-100-100-100-100-100-3, weights held as plain tensors) classifies the three-arm spiral data set, full-batch softmax cross-entropy, SGD with momentum. The framework's weight initialiser draws every weight from 0.01 * N(0, 1) whatever the layer size; through five layers of width 100 each layer scales its signal by roughly 0.07, so the logits are about 1e-6 of the input scale and the backward signal reaching the lower layers is equally tiny: the first-layer gradient norm is around 1e-7, the loss sits at ln 3 and the deep network learns nothing, although a shallow one trains fine.

Source: https://github.com/leonardoaraujosantos/DLMatFramework/issues/16 (Investigate Issue with Deep Network)
Report: "Something is bug is occurring when we use deep networks (ex 3 FC-Relu layers) ... Play with toy
example" -- closed with "The problem disappeared when I improved the initialization on issue #17", where
the initWeights method was changed to Xavier initialisation ("now deeper models became much better").
Reproduced with 1,500 synthetic spiral points (3 arms, angular noise), the network above with 0.01-scaled
normal weights and zero biases, SGD lr 0.05 with momentum 0.9, 800 full-batch steps. The printed loss is
the cross-entropy on 900 held-out spiral points, `acc` the accuracy there.

expect: vanishing-gradient
symptom: loss-above 1.0
batch: 21
"""
import argparse
import math

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def spiral(per_arm, arms=3):
    xs, ys = [], []
    for k in range(arms):
        r = torch.linspace(0.05, 1, per_arm)
        t = torch.linspace(4 * k, 4 * (k + 1), per_arm) + 0.25 * torch.randn(per_arm)
        xs.append(torch.stack([r * torch.sin(t), r * torch.cos(t)], 1))
        ys.append(torch.full((per_arm,), k))
    return torch.cat(xs), torch.cat(ys)


def init_weights(fan_in, fan_out):
    return 0.01 * torch.randn(fan_in, fan_out)


X_train, y_train = spiral(500)
X_test, y_test = spiral(300)
sizes = [2, 100, 100, 100, 100, 100, 3]
weights = [init_weights(a, b).requires_grad_() for a, b in zip(sizes[:-1], sizes[1:])]
biases = [torch.zeros(b, requires_grad=True) for b in sizes[1:]]


def forward(x):
    for layer, (w, b) in enumerate(zip(weights, biases)):
        x = x @ w + b
        if layer < len(weights) - 1:
            x = torch.relu(x)
    return x


opt = torch.optim.SGD(weights + biases, lr=0.05, momentum=0.9)
for step in range(800):
    loss = F.cross_entropy(forward(X_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 200 == 0 or step == 799:
        with torch.no_grad():
            logits = forward(X_test)
            test_loss = F.cross_entropy(logits, y_test).item()
            acc = (logits.argmax(1) == y_test).float().mean().item()
        print(f"step {step} train {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f} "
              f"|grad W1| {weights[0].grad.norm().item():.2e}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

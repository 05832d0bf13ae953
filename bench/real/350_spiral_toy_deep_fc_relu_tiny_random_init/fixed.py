"""Deep FC-ReLU spiral toy -- fixed as in the report, by switching the weight initialiser to Xavier
(normal with variance 2 / (fan_in + fan_out)) instead of a fixed 0.01 scale, so the signal and the
gradients keep their size through the five hidden layers (nothing else changed).
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
    return math.sqrt(2.0 / (fan_in + fan_out)) * torch.randn(fan_in, fan_out)


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

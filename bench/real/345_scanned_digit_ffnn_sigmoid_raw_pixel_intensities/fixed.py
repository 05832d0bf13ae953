"""Raw-pixel sigmoid digit network -- fixed by scaling the 0-255 grey levels to [0, 1] before they enter
the network, so the hidden sigmoids start in their responsive range and pass gradient (nothing else
changed).
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
inputs_train, inputs_test = X_train / 255.0, X_test / 255.0

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

"""One-hidden-layer ReLU digit perceptron -- fixed by keeping the learning rate below the threshold
the question describes (0.02 instead of 1.0), so single-example updates no longer push the ReLU
output units into the dead regime (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

LR = 0.02
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

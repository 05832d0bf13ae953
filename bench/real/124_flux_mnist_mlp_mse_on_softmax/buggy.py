"""Model-zoo MNIST MLP (Dense 784-32 relu, Dense 32-10, softmax) trained with mean-squared error against one-hot labels instead of cross-entropy: the squashed outputs give tiny gradients and the classifier is still far behind after the same training budget.

Source: https://github.com/FluxML/model-zoo/issues/8 (MNIST is using MSE loss)
Report: "MNIST is a classification problem, it has a softmax output layer. It should be using
cross entropy loss." The maintainer closed it as "Fixed in
https://github.com/FluxML/model-zoo/commit/1b6e8723..." (the loss switched to cross-entropy).
Reproduced with the zoo script's model in torch (Chain(Dense(784, 32, relu), Dense(32, 10),
softmax) -> nn.Sequential(..., nn.Softmax(1))), one-hot targets, the loss on the softmax
probabilities, plain SGD here (lr 0.1) over mini-batches of 64 for 3 epochs, on 6,000 synthetic
28 x 28 "digits" (ten smooth stroke templates, randomly shifted, scaled in contrast and noised,
pixels in [0, 1]). The printed loss is the training loss of the last epoch (MSE here,
cross-entropy in the fix; not comparable), `acc` the held-out accuracy.

expect: loss-mismatch
symptom: acc-below 0.8
batch: 7
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


def make_digits(n, templates):
    y = torch.randint(0, 10, (n,))
    img = templates[y]
    shifts = torch.randint(-2, 3, (n, 2))
    img = torch.stack([torch.roll(im, (int(a), int(b)), (0, 1)) for im, (a, b) in zip(img, shifts)])
    img = img * (0.6 + 0.4 * torch.rand(n, 1, 1)) + 0.35 * torch.rand(n, 28, 28)
    return img.clamp(0, 1).view(n, 784), y


gen = torch.Generator().manual_seed(1234)
strokes = torch.rand(10, 1, 7, 7, generator=gen)
templates = F.interpolate(strokes, size=(28, 28), mode="bilinear", align_corners=False).squeeze(1)
templates = ((templates - 0.5) * 3).clamp(0, 1)
x_train, y_train = make_digits(6000, templates)
x_test, y_test = make_digits(2000, templates)

model = nn.Sequential(nn.Linear(784, 32), nn.ReLU(), nn.Linear(32, 10), nn.Softmax(dim=1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def loss_fn(probs, y):
    return F.mse_loss(probs, F.one_hot(y, 10).float())


for epoch in range(3):
    perm = torch.randperm(len(x_train))
    total = 0.0
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        loss = loss_fn(model(x_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(idx)
    with torch.no_grad():
        acc = (model(x_test).argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} loss {total / len(perm):.4f} test_acc {acc:.4f}")
print(f"final_loss={total / len(perm):.6g} acc={acc:.4f}")

"""Adversarially-trained digit classifier in the style of the library the report comes from: an MLP (64 -> 128 ReLU -> 10) is trained on clean 8x8 digits plus FGSM-perturbed copies (eps 0.1), and the training loss adds up the softmax cross-entropy of the clean and the adversarial logits, each reduced with a sum over the examples of the batch instead of a mean. With batches of 256 and SGD at lr 0.05 (a step size that suits a mean loss) the gradient is some 500 times larger than intended: the first steps throw the weights far off, most ReLU units are knocked out and the classifier ends no better than guessing.

Source: https://github.com/cleverhans-lab/cleverhans/pull/529 (use mean value for loss)
Report: "Using the mean value rather than a sum makes the loss invariant to batch size. Invariance to batch
size is nice if we want to search over hyperparameters ..." -- the diff replaces
`softmax_cross_entropy_with_logits(labels=y, logits=logit)` inside `sum(...)` with
`tf.reduce_mean(softmax_cross_entropy_with_logits(...))`. Reproduced with 6,000 synthetic 8x8 digits
(10 binary prototypes plus noise), batches of 256 sliced by hand, 5 epochs. The printed loss
is the clean cross-entropy on 1,500 held-out digits, `acc` their accuracy.

expect: loss-reduction
symptom: loss-above 2.0
batch: 24
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

prototypes = (torch.rand(10, 64) < 0.35).float()


def make_digits(n):
    y = torch.randint(0, 10, (n,))
    return (prototypes[y] + 0.4 * torch.randn(n, 64)).clamp(0, 1), y


def xent(logits, y):
    return F.cross_entropy(logits, y, reduction="sum")


def fgsm(model, x, y, eps=0.1):
    x = x.clone().requires_grad_(True)
    grad, = torch.autograd.grad(F.cross_entropy(model(x), y), x)
    return (x + eps * grad.sign()).clamp(0, 1).detach()


X_train, y_train = make_digits(6000)
X_test, y_test = make_digits(1500)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(5):
    perm = torch.randperm(len(X_train))
    total = 0.0
    for i in range(0, len(perm), 256):
        idx = perm[i:i + 256]
        xb, yb = X_train[idx], y_train[idx]
        x_adv = fgsm(model, xb, yb)
        loss = sum(xent(logits, yb) for logits in (model(xb), model(x_adv)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch} loss {total:.4f}")

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

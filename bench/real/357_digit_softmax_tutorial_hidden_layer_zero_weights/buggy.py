"""Digit classifier grown from the softmax-regression tutorial into a two-layer network: 196 pixel inputs (14x14 digits), 256 sigmoid hidden units, a softmax output, cross-entropy, plain gradient descent with learning rate 0.5 on batches of 100 (the tutorial's settings). The extra layer kept the tutorial's initialisation, so every weight and bias starts at exactly zero: all hidden units compute the same value for every image, receive identical gradients and therefore stay identical copies of one another for the whole run. The 256-unit hidden layer behaves like a single sigmoid unit, a one-number summary of the image, and the classifier cannot separate the ten digits.

Source: https://github.com/tensorflow/tensorflow/issues/3916 (some change to Mnist_softmax.py)
Report: "When i run the original ... mnist_softmax.py ,i got accuray :91.9% But after i change follow code:
W = tf.Variable(tf.zeros([784, 10])) ... to: W1 = tf.Variable(tf.zeros([784, 1000])) b1 =
tf.Variable(tf.zeros([1000])) W2 = tf.Variable(tf.zeros([1000, 10])) b2 = tf.Variable(tf.zeros([10]))
h1=tf.nn.sigmoid(..." -- the zero initialisation that is harmless in the one-layer tutorial is kept for a
hidden layer. Reproduced with 6,000 synthetic 14x14 digits (10 stroke templates, random stroke intensity
and pixel noise), the 196-256-10 network with all-zero parameters, 600 gradient steps on batches of 100.
The printed loss is the cross-entropy on 1,000 held-out digits, `acc` the accuracy there.

expect: bad-init
symptom: acc-below 0.5
batch: 21
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

templates = (torch.rand(10, 196) < 0.3).float()


def digits(n):
    y = torch.randint(0, 10, (n,))
    x = templates[y] * (0.5 + 0.5 * torch.rand(n, 1)) + 0.6 * torch.randn(n, 196)
    return x.clamp(0, 1), y


def init(*shape):
    return torch.zeros(*shape)


X_train, y_train = digits(6000)
X_test, y_test = digits(1000)
W1, b1 = init(196, 256).requires_grad_(), torch.zeros(256, requires_grad=True)
W2, b2 = init(256, 10).requires_grad_(), torch.zeros(10, requires_grad=True)
params = [W1, b1, W2, b2]


def model(x):
    return torch.sigmoid(x @ W1 + b1) @ W2 + b2


for step in range(600):
    idx = torch.randint(0, len(X_train), (100,))
    loss = F.cross_entropy(model(X_train[idx]), y_train[idx])
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.5 * p.grad
    if step % 100 == 99:
        with torch.no_grad():
            logits = model(X_test)
            test_loss = F.cross_entropy(logits, y_test).item()
            acc = (logits.argmax(1) == y_test).float().mean().item()
        print(f"step {step} batch {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

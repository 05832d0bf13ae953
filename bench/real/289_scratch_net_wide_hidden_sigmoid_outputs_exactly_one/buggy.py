"""Hand-written neural network "from scratch" (explicit weight tensors, sigmoid hidden and output
layers, squared error, plain gradient descent on mini-batches sliced by hand) recognising 10 glyph
classes from 64 stroke features. The hidden layer is wide (500 units) and the output weights are
drawn as small positive numbers, so every output unit sums 500 positive contributions: its
pre-activation is around 60, the sigmoid returns exactly 1.0 in float32, its derivative
out * (1 - out) is exactly 0, and no error signal ever reaches any weight -- training does not
move and the network answers at chance.

Source: https://github.com/ArtemOnigiri/SimpleNN/issues/4 ([Вопрос] Сигмоидная функция при больших значениях)
Report: "Если использовать много нейронов, то веса, какими бы маленькими они не были, умноженные на
активацию нейрона, в сумме дают большое число. Я его пытаюсь прогнать по сигмоидной функции и она в
результате дает ровно 1.0. И если обучать, то из-за этого при вычислении производной получается
примерно так 1.0 * (1.0 - 1.0), что в результате дает 0, и обучение не идет." (with many neurons
the weighted sum is a big number, sigmoid gives exactly 1.0, the derivative is 0 and training does
not go); the reporter solved it with softmax on the last layer. Reproduced with 3,000 synthetic
glyphs (class prototypes plus noise), output weights uniform in [0, 0.25), lr 0.1, batches of 50,
10 epochs. The printed loss is the mean squared error of the last epoch, `acc` the accuracy on
1,000 held-out glyphs.

expect: saturated-activation
symptom: acc-below 0.3
batch: 17
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_IN, N_HID, N_OUT = 64, 500, 10
protos = torch.randn(N_OUT, N_IN)


def glyphs(n):
    y = torch.randint(0, N_OUT, (n,))
    return protos[y] + 1.5 * torch.randn(n, N_IN), y


x_tr, y_tr = glyphs(3000)
x_te, y_te = glyphs(1000)
target = torch.eye(N_OUT)

w1 = (torch.randn(N_IN, N_HID) / N_IN ** 0.5).requires_grad_()
b1 = torch.zeros(N_HID, requires_grad=True)
w2 = (0.25 * torch.rand(N_HID, N_OUT)).requires_grad_()
b2 = torch.zeros(N_OUT, requires_grad=True)
params = [w1, b1, w2, b2]


def activate_output(z):
    return torch.sigmoid(z)


def forward(x):
    hidden = torch.sigmoid(x @ w1 + b1)
    return activate_output(hidden @ w2 + b2)


LR = 0.1
for epoch in range(10):
    perm = torch.randperm(len(x_tr))
    total = 0.0
    for i in range(0, len(perm), 50):
        idx = perm[i:i + 50]
        out = forward(x_tr[idx])
        loss = ((out - target[y_tr[idx]]) ** 2).sum(1).mean()
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= LR * p.grad
                p.grad.zero_()
        total += loss.item() * len(idx)
    print(f"epoch {epoch + 1} mse {total / len(x_tr):.4f}")

with torch.no_grad():
    acc = (forward(x_te).argmax(1) == y_te).float().mean().item()
print(f"final_loss={total / len(x_tr):.6g} acc={acc:.4f}")

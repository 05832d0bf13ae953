"""Nielsen-style digit network with sigmoid swapped for ReLU but the sigmoid-era settings kept
(N(0, 1) weights and biases, learning rate 3.0): every ReLU dies and accuracy sits at chance.

Source: https://github.com/MichalDanielDobrzanski/DeepLearningPython/issues/13 (replace sigmoid with relu, but useless)
Report: "I want to replace sigmoid with relu, but cant not improve the accuracy_score" -- the
reporter redefined `sigmoid(z)` as `z * (z > 0)` and `sigmoid_prime(z)` as `1.0 * (z > 0)` in
network.py and got "Epoch 0: 401 / 4200 ... Epoch 1: 401 / 4200 ... Epoch 2: 401 / 4200".
Answer: "Use a learning rate of 0.01 and initialize weights and biases to a much smaller value
( * 0.1). Epoch 29 : 9677 / 10000". Reproduced in torch with the book's Network([784, 30, 10]):
np.random.randn-style weights and biases, quadratic cost, hand-sliced mini-batches of 10 and
the update w -= (eta / m) * sum of gradients with eta = 3.0, the ReLU used for both layers as in
the report; synthetic 28x28 "digits" (10 classes x 4 stroke styles, noisy, pixels in [0, 1]);
`acc` is the test accuracy.

expect: dead-relu
symptom: acc-below 0.3
batch: 4
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

protos = (torch.rand(10, 4, 28, 28) < 0.12).float()
protos = F.avg_pool2d(protos.reshape(40, 1, 28, 28), 3, 1, 1).reshape(10, 4, 28, 28).clamp(0, 1)


def load_data(n):
    y = torch.randint(0, 10, (n,))
    x = protos[y, torch.randint(0, 4, (n,))] * (torch.rand(n, 28, 28) < 0.7) + 0.5 * torch.rand(n, 28, 28)
    return x.clamp(0, 1).reshape(n, 784), y


def sigmoid(z):  # the reporter's replacement: a ReLU under the old name
    return z * (z > 0)


class Network:
    def __init__(self, sizes, scale=1.0):
        self.num_layers = len(sizes)
        self.sizes = sizes
        self.biases = [(torch.randn(y) * scale).requires_grad_() for y in sizes[1:]]
        self.weights = [(torch.randn(y, x) * scale).requires_grad_() for x, y in zip(sizes[:-1], sizes[1:])]

    def feedforward(self, a):
        for b, w in zip(self.biases, self.weights):
            a = sigmoid(a @ w.T + b)
        return a

    def SGD(self, training_data, epochs, mini_batch_size, eta, test_data=None):
        x_all, y_all = training_data
        n = len(x_all)
        self.costs = []
        for j in range(epochs):
            perm = torch.randperm(n)
            for k in range(0, n, mini_batch_size):
                idx = perm[k:k + mini_batch_size]
                self.update_mini_batch(x_all[idx], y_all[idx], eta)
            if test_data:
                print(f"Epoch {j}: {self.evaluate(test_data)} / {len(test_data[0])}")

    def update_mini_batch(self, x, y, eta):
        target = F.one_hot(y, 10).float()
        cost = 0.5 * ((self.feedforward(x) - target) ** 2).sum()  # quadratic cost, summed
        for p in self.biases + self.weights:
            p.grad = None
        cost.backward()
        with torch.no_grad():
            for p in self.biases + self.weights:
                p -= (eta / len(x)) * p.grad
        self.costs.append(cost.item() / len(x))

    def evaluate(self, test_data):
        with torch.no_grad():
            x, y = test_data
            return int((self.feedforward(x).argmax(1) == y).sum())


training_data = load_data(5000)
test_data = load_data(1000)
net = Network([784, 30, 10])
net.SGD(training_data, 15, 10, 3.0, test_data=test_data)
acc = net.evaluate(test_data) / len(test_data[0])
print(f"final_loss={sum(net.costs[-100:]) / 100:.6g} acc={acc:.4f}")

"""A from-scratch backpropagation trainer (a small Trainer class holding explicit weight matrices
for a 12-30-20-3 network with sigmoid units everywhere, squared error to one-hot targets,
minibatch gradient descent) for a three-class sensor dataset. The weights are drawn uniformly from
[0, 1) -- all positive -- so each unit's pre-activation is a sum of many positive terms: the first
hidden layer sits near 0.95, the second at 1.0 and the outputs at 1.0 for every input, the
derivative o(1 - o) is ~0 everywhere, the backpropagated error vanishes and the network never
leaves its initial all-ones output.

Source: https://thearchivebase.com/question/im-using-this-article-to-implement-a-neural-network-with-backpropagation-but-having-trouble/?show=oldest (implementing a neural network with backpropagation, having trouble calculating errors)
Report: "my sigmoid function is squashing all my node outputs to 1.0, which then causes the error
calculation to return 0: error = (expected - actual) * (1 - actual) * actual ... this term causes
multiply by 0" -- answer: "In order to use the sigmoid approach you should make the sum of the
incoming weights at each node approximately one." Reproduced with 1,800 synthetic samples of 12
features in [0, 1] from three overlapping class prototypes, a 1,500/300 split, weights drawn with
torch.rand, zero biases, lr 0.5, batches of 50, 30 epochs. The printed loss is the mean training
squared error of the last epoch, `acc` the validation accuracy.

expect: saturated-activation
symptom: acc-below 0.5
batch: 12
"""
import argparse

import torch

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def init_weights(fan_in, fan_out):
    return torch.rand(fan_in, fan_out)


class Trainer:
    def __init__(self, sizes, lr):
        self.W = [init_weights(a, b).requires_grad_() for a, b in zip(sizes[:-1], sizes[1:])]
        self.b = [torch.zeros(b, requires_grad=True) for b in sizes[1:]]
        self.lr = lr

    def forward(self, x):
        for W, b in zip(self.W, self.b):
            x = torch.sigmoid(x @ W + b)
        return x

    def train_batch(self, x, t):
        out = self.forward(x)
        loss = ((t - out) ** 2).sum(1).mean()
        grads = torch.autograd.grad(loss, self.W + self.b)
        with torch.no_grad():
            for p, g in zip(self.W + self.b, grads):
                p -= self.lr * g
        return loss.item()

    def fit(self, X, T, epochs, batch):
        for epoch in range(epochs):
            order = torch.randperm(len(X))
            losses = [self.train_batch(X[order[i:i + batch]], T[order[i:i + batch]])
                      for i in range(0, len(X), batch)]
            self.last = sum(losses) / len(losses)
            if epoch % 5 == 0:
                print(f"epoch {epoch} mse {self.last:.4f}")
        return self.last


protos = torch.rand(3, 12)
y = torch.randint(0, 3, (1800,))
X = (protos[y] + 0.25 * torch.randn(1800, 12)).clamp(0, 1)
T = torch.eye(3)[y]

net = Trainer([12, 30, 20, 3], lr=0.5)
final = net.fit(X[:1500], T[:1500], epochs=30, batch=50)
with torch.no_grad():
    acc = (net.forward(X[1500:]).argmax(1) == y[1500:]).float().mean().item()
print(f"final_loss={final:.6g} acc={acc:.4f}")

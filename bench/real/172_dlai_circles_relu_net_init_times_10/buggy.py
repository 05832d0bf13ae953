"""Three-layer ReLU network (2-10-5-1, sigmoid output, binary cross-entropy, full-batch gradient descent lr 0.01) on the two-circles data of the deep-learning-specialization "Initialization" assignment, with weights drawn as randn * 10: the first forward pass already pushes the sigmoid to exactly 0 or 1 for many points, the pre-activations are huge, and after 15,000 iterations the boundary is still poor while He initialisation fits the circles almost perfectly.

Source: https://github.com/amanchadha/coursera-deep-learning-specialization/blob/master/C2%20-%20Improving%20Deep%20Neural%20Networks%20Hyperparameter%20tuning%2C%20Regularization%20and%20Optimization/Week%201/Initialization/Initialization.ipynb (Initialization -- initialize_parameters_random vs initialize_parameters_he)
The notebook trains LINEAR->RELU->LINEAR->RELU->LINEAR->SIGMOID on make_circles(300, noise=.05)
with `W = np.random.randn(...) * 10`; its observations: "The cost starts very high. This is
because with large random-valued weights, the last activation (sigmoid) outputs results that are
very close to 0 or 1 for some examples ... Poor initialization can lead to vanishing/exploding
gradients, which also slows down the optimization algorithm", and the fix is He initialisation,
`randn * sqrt(2 / n_prev)`. Reproduced in PyTorch with the notebook's layer sizes, iteration count
and learning rate (parameters as explicit tensors, sigmoid output with nn.BCELoss, plain SGD on
the full batch) on freshly drawn circles (factor 0.8, noise 0.05; 300 training and 300 test
points). The printed loss is the final training cost, `acc` the test accuracy.

expect: bad-init
symptom: acc-below 0.9
batch: 10
"""
import argparse
import math

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def make_circles(n, noise=0.05, factor=0.8):
    n_out = n // 2
    t = torch.rand(n) * 2 * math.pi
    r = torch.where(torch.arange(n) < n_out, torch.tensor(1.0), torch.tensor(factor))
    X = torch.stack([r * torch.cos(t), r * torch.sin(t)], 1) + noise * torch.randn(n, 2)
    y = (torch.arange(n) >= n_out).float().unsqueeze(1)
    perm = torch.randperm(n)
    return X[perm], y[perm]


train_X, train_Y = make_circles(300)
test_X, test_Y = make_circles(300)


def initialize_parameters_random(layers_dims):
    params = []
    for l in range(1, len(layers_dims)):
        W = torch.randn(layers_dims[l - 1], layers_dims[l]) * 10
        b = torch.zeros(layers_dims[l])
        params += [W.requires_grad_(), b.requires_grad_()]
    return params


def forward_propagation(X, params):
    W1, b1, W2, b2, W3, b3 = params
    a1 = torch.relu(X @ W1 + b1)
    a2 = torch.relu(a1 @ W2 + b2)
    return torch.sigmoid(a2 @ W3 + b3)


layers_dims = [2, 10, 5, 1]
params = initialize_parameters_random(layers_dims)
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(params, lr=0.01)

for i in range(15000):
    a3 = forward_propagation(train_X, params)
    cost = criterion(a3, train_Y)
    optimizer.zero_grad()
    cost.backward()
    optimizer.step()
    if i % 1000 == 0:
        print(f"Cost after iteration {i}: {cost.item():.4f}")

with torch.no_grad():
    pred = (forward_propagation(test_X, params) > 0.5).float()
    acc = (pred == test_Y).float().mean().item()
print(f"final_loss={cost.item():.6g} acc={acc:.4f}")

"""Gene-expression autoencoder (a deep fully-connected encoder/decoder with a bottleneck of 16, MSE reconstruction, SGD with momentum, DataLoader) built with sigmoid activations in all five hidden layers: each sigmoid passes back at most a quarter of the gradient, so by the time the reconstruction error reaches the first encoder layers it has all but vanished; the network stays stuck near the reconstruction of the average profile and the loss barely moves below that of predicting the gene means.

Source: https://github.com/MollyZhang/Multi-task-TCGA-learning/issues/15 (Use sigmoid as activation function in Autoencoder)
Report: "Turns out Leaky Relu converges faster than Sigmoid and Tanh and doesn't get stuck at 0" --
the sigmoid autoencoder on the TCGA expression matrix got stuck, swapping the activation for
LeakyReLU fixed it. Reproduced with 3,000 synthetic tumour profiles of 400 genes (12 latent
pathway programmes plus gene-level noise, standardised per gene), an autoencoder
400-128-64-16-64-128-400 with Sigmoid after every hidden layer, SGD lr 0.05
momentum 0.9, DataLoader batches of 64, 20 epochs. The printed loss is the training MSE of the
last epoch, `acc` the share of held-out profiles reconstructed with R^2 above 0.5.

expect: vanishing-gradient
symptom: loss-above 0.8
batch: 11
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

GENES, PROGRAMS = 400, 12
Act = nn.Sigmoid


def make_profiles(n, loadings):
    z = torch.randn(n, PROGRAMS)
    return z @ loadings + 0.4 * torch.randn(n, GENES)


def autoencoder(sizes):
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(Act())
    return nn.Sequential(*layers)


loadings = torch.randn(PROGRAMS, GENES) * (torch.rand(PROGRAMS, GENES) < 0.3)
X = make_profiles(3500, loadings)
X = (X - X.mean(0)) / X.std(0)
X_train, X_test = X[:3000], X[3000:]

model = autoencoder([GENES, 128, 64, 16, 64, 128, GENES])
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.MSELoss()
loader = DataLoader(TensorDataset(X_train), batch_size=64, shuffle=True)

for epoch in range(20):
    total, count = 0.0, 0
    for (xb,) in loader:
        loss = loss_fn(model(xb), xb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        count += len(xb)
    print(f"epoch {epoch} mse {total / count:.4f}")

with torch.no_grad():
    rec = model(X_test)
    r2 = 1 - ((rec - X_test) ** 2).sum(1) / ((X_test - X_test.mean(1, keepdim=True)) ** 2).sum(1)
    acc = (r2 > 0.5).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")

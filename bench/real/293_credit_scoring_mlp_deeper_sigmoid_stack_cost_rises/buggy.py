"""Credit-default classifier on 20 standardised applicant features. The author kept adding hidden
layers (now eight sigmoid layers of 64 units, default PyTorch init, SGD with momentum, shuffled
DataLoader) expecting a lower cost, but the cost got worse: each sigmoid multiplies the
back-propagated error by at most 0.25, so after eight of them the first layers receive gradients
thousands of times smaller than the last, they barely move, and the network stays near the
base-rate prediction within the training budget.

Source: https://datascience.stackexchange.com/questions/319/debugging-neural-networks (Debugging Neural Networks)
Report: "when I increase the number of hidden layers, the cost of the hypothesis increases
(everything else is kept the same) ... You are using the sigmoid/tanh activation function. The
sigmoid function causes the vanishing gradient problem which makes learning hard with more layers.
Try using the ReLu function." Reproduced with 6,000 synthetic applicants whose default probability
is a nonlinear function of six features, SGD lr 0.05 momentum 0.9, batch 64, 16 epochs. The printed
loss is the BCE on 2,000 held-out applicants, `acc` the held-out accuracy.

expect: vanishing-gradient
symptom: loss-above 0.6
batch: 17
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


def applicants(n):
    x = torch.randn(n, 20)
    score = 1.5 * x[:, 0] - 1.2 * x[:, 1] * x[:, 2] + torch.sin(2 * x[:, 3]) + x[:, 4].abs() - 0.8 * x[:, 5]
    y = (torch.rand(n) < torch.sigmoid(2 * (score - 0.8))).float()
    return x, y


x_tr, y_tr = applicants(6000)
x_te, y_te = applicants(2000)

ACT = nn.Sigmoid
layers, width = [], 20
for _ in range(8):
    layers += [nn.Linear(width, 64), ACT()]
    width = 64
model = nn.Sequential(*layers, nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.BCEWithLogitsLoss()
loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=64, shuffle=True)
for epoch in range(16):
    for xb, yb in loader:
        loss = loss_fn(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(x_te).squeeze(1)
        test_loss = loss_fn(logits, y_te).item()
    print(f"epoch {epoch + 1} train {loss.item():.4f} test {test_loss:.4f}")

acc = ((logits > 0).float() == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

"""Property regressor on binary fingerprints, 4 x 500 hidden units -- fixed with the cure for the
vanishing gradient the answer describes: ReLU instead of sigmoid in the hidden layers; nothing
else changed.

Source: https://ai.stackexchange.com/questions/16557/what-could-be-the-problem-when-a-neural-network-with-four-hidden-layers-with-the (What could be the problem when a neural network with four hidden layers with the sigmoid activation function is not learning?)
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

N, BITS = 4000, 512
bit_freq = 0.02 + 0.15 * torch.rand(BITS)
X = (torch.rand(N, BITS) < bit_freq).float()
w1 = torch.randn(BITS) * (torch.rand(BITS) < 0.3)
pairs = torch.randint(0, BITS, (300, 2))
w2 = 1.5 * torch.randn(300)
y = X @ w1 + (X[:, pairs[:, 0]] * X[:, pairs[:, 1]]) @ w2
y = ((y - y.mean()) / y.std()).unsqueeze(1)
X_train, y_train, X_test, y_test = X[:3000], y[:3000], X[3000:], y[3000:]

act = nn.ReLU
model = nn.Sequential(
    nn.Linear(BITS, 500), act(),
    nn.Linear(500, 500), act(),
    nn.Linear(500, 500), act(),
    nn.Linear(500, 500), act(),
    nn.Linear(500, 1),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
for epoch in range(12):
    total, n = 0.0, 0
    for xb, yb in loader:
        loss = criterion(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
        n += len(xb)
    if epoch % 3 == 0:
        g_first = model[0].weight.grad.norm().item()
        g_last = model[8].weight.grad.norm().item()
        print(f"epoch {epoch} train mse {total / n:.4f}  grad norm first/last layer {g_first:.2e}/{g_last:.2e}")

with torch.no_grad():
    pred = model(X_test)
    r2 = 1 - ((pred - y_test) ** 2).sum() / ((y_test - y_test.mean()) ** 2).sum()
print(f"final_loss={total / n:.6g} acc={r2.item():.4f}")

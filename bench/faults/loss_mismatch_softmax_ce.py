"""Fault: loss-mismatch. The classifier ends in nn.Softmax and its output goes into
nn.CrossEntropyLoss, which applies log_softmax itself. Softmax-of-softmax squashes the
logits into [0, 1]: the loss can never go below ~1.46 for 10 classes (even with perfect
predictions) and the gradients are tiny, so the loss flattens far above what the model
could reach.

Mechanism: probabilities (softmax output) passed to a loss that expects logits.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Classifier(nn.Module):
    def __init__(self, d_in, n_cls):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, 128), nn.ReLU(), nn.Dropout(0.1), nn.Linear(128, n_cls))
        self.out = nn.Softmax(dim=-1)   # "so that predictions are probabilities"

    def forward(self, x):
        return self.out(self.body(x))


ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=4)
a = ap.parse_args()
torch.manual_seed(a.seed)
centers = torch.randn(10, 40) * 1.5
y = torch.randint(0, 10, (5000,))
x = centers[y] + torch.randn(5000, 40)
model = Classifier(40, 10)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
step = 0
for ep in range(a.epochs):
    for xb, yb in DataLoader(TensorDataset(x, y), batch_size=100, shuffle=True):
        loss = criterion(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"step {step} loss {loss.item():.4f}")
        step += 1
model.eval()
with torch.no_grad():
    print("train acc", (model(x).argmax(1) == y).float().mean().item())

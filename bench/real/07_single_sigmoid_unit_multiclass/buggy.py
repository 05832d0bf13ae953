"""Ten-class digits with one sigmoid output and binary cross-entropy: accuracy stays ~11 %.

Source: https://datascience.stackexchange.com/questions/38604/too-low-accuracy-on-mnist-dataset-using-a-neural-network
Report: a 784-64-1 network with a sigmoid output, trained with binary_crossentropy on labels 0-9;
the loss does not change and accuracy is ~11 % (chance). Fix from the answers: ten outputs with a
softmax and categorical (sparse) cross-entropy. Reproduced in PyTorch with F.binary_cross_entropy
on the raw class index, written out as Keras computes it
(a loss of -55 in the report).

expect: loss-mismatch
symptom: acc-below 0.4
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

protos = torch.rand(10, 64)
y_train = torch.randint(0, 10, (4000,))
X_train = (protos[y_train] + 0.25 * torch.rand(4000, 64)).clamp(0, 1)

model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

hist = []
for epoch in range(3):
    for i in range(0, 4000, 32):
        xb, yb = X_train[i:i + 32], y_train[i:i + 32]
        out = model(xb).squeeze(1)
        t = yb.float()
        loss = -(t * torch.log(out + 1e-7) + (1 - t) * torch.log(1 - out + 1e-7)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())

with torch.no_grad():
    pred = (model(X_train).squeeze(1) > 0.5).long()
    acc = (pred == y_train).float().mean().item()
print(f"final_loss={sum(hist[-20:]) / 20:.6g} acc={acc:.4f}")

"""Fault: loss-mismatch. A 5-class problem trained as regression on the class index:
MSELoss between a single output and y.float(). The classes are unordered (the index
means nothing), so the best a regressor can do is predict a blend; the loss plateaus
near the label variance and accuracy stays low.

Mechanism: MSE on integer class indices instead of cross-entropy on logits.
"""
import argparse

import torch
import torch.nn.functional as F


def main(seed=0, steps=300):
    torch.manual_seed(seed)
    # classes arranged on a ring: no ordering of the indices fits them
    angle = torch.arange(5) * (2 * torch.pi / 5)
    centers = torch.stack([angle.cos(), angle.sin()], 1) * 3
    y = torch.randint(0, 5, (4000,))
    x = torch.cat([centers[y] + 1.2 * torch.randn(4000, 2), torch.randn(4000, 6)], 1)
    w1 = torch.nn.Linear(8, 64)
    w2 = torch.nn.Linear(64, 1)
    params = list(w1.parameters()) + list(w2.parameters())
    opt = torch.optim.SGD(params, lr=0.01, momentum=0.9)
    for step in range(steps):
        i = torch.randint(0, 4000, (64,))
        pred = w2(torch.relu(w1(x[i]))).squeeze(-1)
        loss = F.mse_loss(pred, y[i].float())
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(step, round(loss.item(), 4))
    with torch.no_grad():
        acc = (w2(torch.relu(w1(x))).squeeze(-1).round().clamp(0, 4) == y).float().mean()
    print("accuracy", acc.item(), "label variance", y.float().var().item())


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    main(a.seed)

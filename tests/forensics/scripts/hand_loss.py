"""A loop without a DataLoader or a torch loss function (bench/real 295's shape): batches
sliced by hand, a logistic loss written out, log(1 + exp(-y * score)). Row 10 of step 3's
batch is in raw units and its label is -1: exp overflows and the loss is inf. The bundle
holds the model's inputs only; the replay's rerun serves them at its first forward, whose
y[idx] are step 0's (row 10 there is labelled +1), so the step does not reproduce, and
the replay must say why."""
import sys

import torch
from torch import nn


def main():
    torch.manual_seed(0)
    model = nn.Linear(6, 1)
    x = torch.rand(512, 6)
    y = torch.where(torch.rand(512) < 0.5, 1.0, -1.0)
    with torch.no_grad():
        x[3 * 64 + 10] = 1e4 * torch.sign(model.weight[0])
    y[3 * 64 + 10], y[10] = -1.0, 1.0
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    for step, i in enumerate(range(0, 512, 64)):
        score = model(x[i:i + 64]).squeeze(1)
        loss = torch.log(1 + torch.exp(-y[i:i + 64] * score)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if not torch.isfinite(loss):
            print(f"step {step}: loss {loss.item()}")
            sys.exit(1)


if __name__ == "__main__":
    main()

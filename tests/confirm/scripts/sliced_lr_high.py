"""A regression trained with plain SGD at a learning rate ~10x past its stability limit,
batches sliced by hand from a tensor (no DataLoader): the loss overflows within ~20 steps."""
import sys

import torch

torch.manual_seed(0)
lr = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
X = torch.randn(2048, 10)
y = X @ torch.randn(10, 1) + 0.1 * torch.randn(2048, 1)
model = torch.nn.Linear(10, 1)
opt = torch.optim.SGD(model.parameters(), lr=lr)
for step in range(60):
    i = torch.randint(0, 2048, (64,))
    loss = torch.nn.functional.mse_loss(model(X[i]), y[i])
    opt.zero_grad()
    loss.backward()
    opt.step()

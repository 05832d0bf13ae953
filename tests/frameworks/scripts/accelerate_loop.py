"""A plain Accelerate loop (Accelerator.prepare, accelerator.backward, gradient
accumulation through accelerator.accumulate when argv[1] > 1): its DataLoaderShard reads
one batch ahead; row 300 holds NaN."""
import sys
import torch
from accelerate import Accelerator
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

accum = int(sys.argv[1]) if len(sys.argv) > 1 else 1
torch.manual_seed(0)
X = torch.randn(512, 8); Y = X[:, :1] * 2
X[300, 3] = float("nan")
acc = Accelerator(cpu=True, gradient_accumulation_steps=accum)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
dl = DataLoader(TensorDataset(X, Y), batch_size=16, shuffle=True, generator=torch.Generator().manual_seed(0))
model, opt, dl = acc.prepare(model, opt, dl)
for epoch in range(2):
    for x, y in dl:
        with acc.accumulate(model):
            loss = nn.functional.mse_loss(model(x), y)
            acc.backward(loss)
            opt.step()
            opt.zero_grad()
print("done")

"""DDP on gloo, 2 ranks: rank 1 draws a poisoned sample at step 5 (its loss goes NaN first)."""
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
X = torch.randn(256, 4)
Y = X.sum(1, keepdim=True)
sampler = DistributedSampler(TensorDataset(X, Y), shuffle=False)
order = list(iter(sampler))  # this rank's dataset indices, in order
if rank == 1:
    X[order[5 * 8]] = float("nan")  # first sample of rank 1's 6th batch
loader = DataLoader(TensorDataset(X, Y), batch_size=8, sampler=sampler)
model = DDP(nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step, (x, y) in enumerate(loader):
    if step == 10:
        break
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
print(f"rank {rank} done")
dist.destroy_process_group()

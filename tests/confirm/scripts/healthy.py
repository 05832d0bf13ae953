"""A small classifier that trains well: no cause should be confirmed."""
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(1024, 8)
y = (X[:, :3].sum(1) > 0).long() + (X[:, 3] > 1).long()
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 3))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    for xb, yb in loader:
        loss = torch.nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()

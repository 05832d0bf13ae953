"""Face-rig approximation MLP -- fixed as the maintainer did: the validation set is the last 100
poses (data[-100:]), disjoint from the training slice data[:-100]; nothing else changed.

Source: https://github.com/electronicarts/rig-inversion/issues/2 (Dataset split incorrect in train_rig_approximation.py)
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_POSES, N_CTRL, N_VERT = 500, 24, 120
basis = torch.randn(N_CTRL, N_VERT * 3) * 1.5                          # blendshapes (mm)
pairs = torch.randint(0, N_CTRL, (40, 2))
correctives = torch.randn(40, N_VERT * 3) * 1.0                         # combination shapes


def evaluate_rig(ctrl):
    lin = ctrl @ basis
    comb = (ctrl[:, pairs[:, 0]] * ctrl[:, pairs[:, 1]]) @ correctives
    return lin + comb + 0.3 * torch.sin(3 * ctrl[:, :6]).sum(1, keepdim=True)


controls = torch.rand(N_POSES, N_CTRL) * (torch.rand(N_POSES, N_CTRL) < 0.35)   # sparse activations
offsets = evaluate_rig(controls)
data = {"arr_0": controls, "arr_1": offsets}


class ToyDataset(Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


dataset = ToyDataset(data["arr_0"][:-100], data["arr_1"][:-100])
validate_dataset = ToyDataset(data["arr_0"][-100:], data["arr_1"][-100:])
train_loader = DataLoader(dataset, batch_size=32, shuffle=True)
val_loader = DataLoader(validate_dataset, batch_size=100)

model = nn.Sequential(nn.Linear(N_CTRL, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                      nn.Linear(256, N_VERT * 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()
for epoch in range(400):
    model.train()
    for x, y in train_loader:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if epoch % 100 == 0:
        print(f"epoch {epoch} train mse {loss.item():.4f}")

model.eval()
se, close, n = 0.0, 0.0, 0
with torch.no_grad():
    for x, y in val_loader:
        err = model(x) - y
        se += err.pow(2).sum().item()
        d = err.view(len(x), N_VERT, 3).norm(dim=-1)
        close += (d <= 0.5).float().sum().item()
        n += len(x)
val_mse = se / (n * N_VERT * 3)
print(f"final_loss={val_mse:.6g} acc={close / (n * N_VERT):.4f}")

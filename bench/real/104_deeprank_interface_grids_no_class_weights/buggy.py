"""3D-CNN scorer of protein-protein interface models (DeepRank-style voxel grids) trained with an unweighted CrossEntropyLoss on data with few near-native models: it labels everything as decoy.

Source: https://github.com/DeepRank/deeprank/pull/120 (Added class weights to the CrossEntropy Loss)
Report: DeepRank classifies docking models of a protein-protein interface, mapped to 3D grids
of atomic-density and energy features, as near-native or decoy; docking runs give very few
near-native models among thousands of decoys, and the pull request adds class weights to the
CrossEntropyLoss of its training loop. Reproduced with the training loop's shape (3D conv net
on the feature grids, CrossEntropyLoss, Adam, DataLoader) on synthetic 2-channel 12^3 grids in
which 5 % of the models (near-natives) carry a slightly more compact, better-packed interface blob; `acc` is
the balanced accuracy (mean per-class recall) on held-out models.

expect: class-imbalance
symptom: acc-below 0.65
batch: 5
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

G = 12
grid = torch.stack(torch.meshgrid(*[torch.arange(G).float()] * 3, indexing="ij"))


def make(n, frac_native=0.05):
    y = (torch.rand(n) < frac_native).long()
    centre = 4 + 4 * torch.rand(n, 3)
    spread = torch.where(y == 1, 2.2, 2.6) + 0.5 * torch.rand(n)      # near-natives are compact
    d2 = ((grid.unsqueeze(0) - centre[:, :, None, None, None]) ** 2).sum(1)
    density = torch.exp(-d2 / (2 * spread[:, None, None, None] ** 2))
    energy = density * torch.where(y == 1, -0.75, -0.7)[:, None, None, None]
    x = torch.stack([density, energy], 1) + 0.6 * torch.randn(n, 2, G, G, G)
    return TensorDataset(x, y)


class CnnClass(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv3d(2, 8, 3, padding=1)
        self.conv2 = nn.Conv3d(8, 16, 3, padding=1)
        self.fc1 = nn.Linear(16 * 3 * 3 * 3, 32)
        self.fc2 = nn.Linear(32, 2)

    def forward(self, x):
        x = F.max_pool3d(F.relu(self.conv1(x)), 2)
        x = F.max_pool3d(F.relu(self.conv2(x)), 2)
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


train_set, valid_set = make(3000), make(2000)
train_loader = DataLoader(train_set, batch_size=64, shuffle=True)
net = CnnClass()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
losses = []
for epoch in range(6):
    net.train()
    for inputs, targets in train_loader:
        loss = criterion(net(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-47:]) / 47:.4f}")

net.eval()
with torch.no_grad():
    x_val, y_val = valid_set.tensors
    pred = net(x_val).argmax(1)
    recalls = [(pred[y_val == c] == c).float().mean().item() for c in (0, 1)]
print(f"final_loss={sum(losses[-47:]) / 47:.6g} acc={sum(recalls) / 2:.4f}")

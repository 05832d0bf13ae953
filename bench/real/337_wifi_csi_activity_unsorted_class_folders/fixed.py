"""WiFi CSI activity recogniser (1-D CNN) -- fixed as the issue recommends: the class-folder listing
is sorted before folder positions are used as class indices, so both splits map every activity to the
same index (nothing else changed).
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

ACTIVITIES = ["bed", "fall", "pickup", "run", "sitdown", "standup", "walk"]
T = 64
doppler = {a: 1.5 + 1.1 * i for i, a in enumerate(ACTIVITIES)}


def record(activity):
    t = torch.arange(T).float()
    phase = 2 * math.pi * torch.rand(3, 1)
    gain = 0.5 + torch.rand(3, 1)
    return gain * torch.sin(2 * math.pi * doppler[activity] * t / T + phase) + 0.6 * torch.randn(3, T)


def write_split(n_per_class, write_order):
    """Folders of recordings, in the order the collection script wrote them to disk."""
    return {f"{a}/": [record(a) for _ in range(n_per_class)] for a in write_order}


class CSIDataset(Dataset):
    def __init__(self, root):
        self.folder = sorted(root.keys())
        self.data_list = [(x, self.folder.index(f)) for f in root for x in root[f]]

    def __len__(self):
        return len(self.data_list)

    def __getitem__(self, i):
        return self.data_list[i]


train_root = write_split(200, ACTIVITIES)
test_root = write_split(100, [ACTIVITIES[i] for i in torch.randperm(len(ACTIVITIES)).tolist()])
train_dl = DataLoader(CSIDataset(train_root), batch_size=32, shuffle=True)
test_ds = CSIDataset(test_root)
X_test = torch.stack([x for x, _ in test_ds.data_list])
Y_test = torch.tensor([y for _, y in test_ds.data_list])

model = nn.Sequential(
    nn.Conv1d(3, 16, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(16, 32, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
    nn.Flatten(), nn.Linear(32, len(ACTIVITIES)))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(6):
    model.train()
    correct, seen = 0, 0
    for x, y in train_dl:
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        correct += (logits.argmax(1) == y).sum().item()
        seen += len(y)
    model.eval()
    with torch.no_grad():
        out = model(X_test)
        test_loss = F.cross_entropy(out, Y_test).item()
        test_acc = (out.argmax(1) == Y_test).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} train_acc {correct / seen:.3f} test {test_loss:.4f} acc {test_acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={test_acc:.4f}")

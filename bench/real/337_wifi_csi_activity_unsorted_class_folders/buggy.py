"""WiFi channel-state-information (CSI) activity recogniser: a 1-D CNN classifies 7 human activities from 3-antenna CSI amplitude streams (cross-entropy, Adam, DataLoader). Like the benchmark's dataset classes, the class index of a recording is the position of its class folder in the directory listing of its split (`self.folder = glob(root + '/*/')`), and that listing comes back in file-system order, not sorted: the train and test roots were written in different orders, so the same activity gets a different index in each split. The model fits the training labels, but on the test split every prediction is compared against a permuted label, and test accuracy collapses to chance.

Source: https://github.com/xyanchen/WiFi-CSI-Sensing-Benchmark/issues/7 (Scrambled labels)
Report: "I ... consistently get scrambled labels for all datasets except UT-HAR. I think this stems from
the following lines of code in the `CSI_Dataset` and `Widar_Dataset` classes: `self.data_list =
glob.glob(root_dir+'/*/*.csv')` `self.folder = glob.glob(root_dir+'/*/')` ... glob.glob returns results in
arbitrary order. The label indices are retrieved from the indices in this arbitrarily ordered list ... I'd
recommend you to always apply `sort()` to `self.folder` and `self.data_list`." Reproduced with an
in-memory stand-in for the two split directories (the listing returns class folders in the order they
were written), 1,400 training and 700 test recordings of 3 x 64 synthetic CSI amplitudes (activity-specific
Doppler tones plus noise), a two-layer 1-D CNN, Adam lr 2e-3, batch 32, 6 epochs. The printed loss is the
test cross-entropy, `acc` the test accuracy.

expect: label-misaligned
symptom: acc-below 0.5
batch: 20
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
        self.folder = list(root.keys())
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

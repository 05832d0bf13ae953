"""Medical-image classifier whose images and ground-truth labels come from two loaders that are
shuffled independently.

Source: https://github.com/mlcommons/GaNDLF/pull/870 (Made train batches order same as gt)
Report (maintainer, on the fix): "Basically, there is a bug with the training pipeline, where the
data and ground truth label are getting shuffled separately." The follow-up turned shuffling
back on once both came from the same loader (GaNDLF PR #868). Reproduced with a small CNN that
grades synthetic 2-D patches (3 classes: no lesion / small lesion / large lesion); the training
loop zips a shuffled image loader with a shuffled label loader, so each image is paired with the
label of another one. Validation is done correctly, so it shows chance level.

expect: label-misaligned
symptom: acc-below 0.5
batch: 3
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

S = 24


def synth(n):
    yy, xx = torch.meshgrid(torch.arange(S).float(), torch.arange(S).float(), indexing="ij")
    labels = torch.randint(0, 3, (n,))
    imgs = 0.3 * torch.randn(n, 1, S, S)
    c = 5 + torch.rand(n, 2) * (S - 10)
    radius = torch.tensor([0.0, 2.0, 4.5])[labels] * (0.8 + 0.4 * torch.rand(n))
    d2 = (yy - c[:, 0, None, None]) ** 2 + (xx - c[:, 1, None, None]) ** 2
    imgs[:, 0] += (d2 < radius[:, None, None] ** 2).float()
    return imgs, labels


class PatchImages(Dataset):
    def __init__(self, imgs):
        self.imgs = imgs

    def __len__(self):
        return len(self.imgs)

    def __getitem__(self, i):
        return self.imgs[i]


class GroundTruth(Dataset):
    def __init__(self, labels):
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.labels[i]


train_x, train_y = synth(1200)
val_x, val_y = synth(400)

image_loader = DataLoader(PatchImages(train_x), batch_size=32, shuffle=True)
label_loader = DataLoader(GroundTruth(train_y), batch_size=32, shuffle=True)
val_loader = DataLoader(TensorDataset(val_x, val_y), batch_size=200)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 6 * 6, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc(x.flatten(1))


model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
step = 0
losses = []
for epoch in range(8):
    model.train()
    for images, labels in zip(image_loader, label_loader):
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        step += 1
        losses.append(loss.item())
        if step % 10 == 0:
            print(f"epoch {epoch} step {step} train_loss {loss.item():.4f}")
    model.eval()
    correct, vloss = 0, 0.0
    with torch.no_grad():
        for xb, yb in val_loader:
            out = model(xb)
            vloss += F.cross_entropy(out, yb, reduction="sum").item()
            correct += (out.argmax(1) == yb).sum().item()
    print(f"epoch {epoch} val_loss {vloss / len(val_x):.4f} val_acc {correct / len(val_x):.3f}")
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={correct / len(val_x):.4f}")

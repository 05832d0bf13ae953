"""Own-data CNN tutorial: class folders read in os.listdir() order, labels assigned in alphabetical blocks.

Source: https://github.com/anujshah1003/own_data_cnn_implementation_keras/issues/4 (Mislabelling)
Report: "os.listdir(data_path + '/' + dataset) doesn't seem to list the directories alphabetically
... the directories are read as ['cats', 'horses', 'dogs', 'humans']. Assigning the labels in
ascending order (names = ['cats', 'dogs', 'horses', 'humans']) and matching them to the read data
(labels[0:202] = 0 ... labels[202:404] = 1) would create mismatch between the assigned labels
and the actual labels. The way around this is to sort" the listing. Reproduced with an in-memory
folder tree whose listing order, like os.listdir's, is arbitrary; `acc` is measured against the
true classes.

expect: label-misaligned
symptom: acc-below 0.6
batch: 2
"""
import argparse
import random

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
random.seed(args.seed)

names = ["cats", "dogs", "horses", "humans"]
per_class = 202
prototypes = {c: torch.randn(1, 16, 16) for c in names}
data_path = {c: [prototypes[c] + 0.8 * torch.randn(1, 16, 16) for _ in range(per_class)] for c in names}


def listdir(tree):  # file-system order, not alphabetical
    entries = list(tree)
    while entries == sorted(entries):
        random.shuffle(entries)
    return entries


data_dir_list = listdir(data_path)
img_data_list = []
for dataset in data_dir_list:
    img_list = data_path[dataset]
    print("Loaded the images of dataset-{}".format(dataset))
    img_data_list.extend(img_list)
img_data = torch.stack(img_data_list)

num_of_samples = img_data.shape[0]
labels = torch.ones(num_of_samples, dtype=torch.long)
labels[0:202] = 0
labels[202:404] = 1
labels[404:606] = 2
labels[606:] = 3
truth = torch.tensor([names.index(d) for d in data_dir_list for _ in range(per_class)])

model = nn.Sequential(nn.Conv2d(1, 16, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 16, 3), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(64, 4))
opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
perm = torch.randperm(num_of_samples)
train, test = perm[:650], perm[650:]
losses = []
for epoch in range(6):
    order = train[torch.randperm(len(train))]
    for k in range(0, len(order), 32):
        b = order[k:k + 32]
        loss = nn.functional.cross_entropy(model(img_data[b]), labels[b])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
with torch.no_grad():
    acc = (model(img_data[test]).argmax(1) == truth[test]).float().mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")

"""Face-attribute classifier (smiling or not) on 16x16 grey face crops with a two-block CNN (cross-entropy, Adam lr 1e-3, DataLoader batches of 64). Each image file has a matching CSV row with its attributes; the label list is built by walking the image directory and reading the CSV entry of each file in the order the walk returns them, but the image loader (like Keras' image_dataset_from_directory) reads the files in sorted path order and pairs the i-th image with the i-th label. The walk order is not sorted, so the labels are attached to the wrong faces: the training set is a random pairing of faces and attributes, the network can only memorise noise, and on correctly labelled held-out faces it stays at chance.

Source: https://github.com/keras-team/keras/issues/14416 (image_dataset_from_directory label list appear to be assigned in a random order)
Report: "I have 2 folders ... First one contains PNG images and the second one contains CSV describing each
image ... The documentation states: Labels should be sorted according to the alphanumeric order of the
image file paths (obtained via os.walk(directory) in Python). so I do exactly that: ... for path,
directories, image_files in os.walk(images_directory): for image_file in image_files: ...
label_list.append(get_class_label(SELECTED_FEATURE, label_file)) ... I get the labels assigned to my images
in what appears a random order each time I load them." Reproduced with 2,400 synthetic face crops (a
mouth-curve pattern decides "smiling", random face shape, lighting and noise), a simulated directory walk
that returns the file names in arbitrary order, a loader that sorts the paths, 5 epochs. The printed loss
is the cross-entropy on 600 correctly labelled held-out faces, `acc` the accuracy there.

expect: label-misaligned
symptom: acc-below 0.65
batch: 21
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

yy, xx = torch.meshgrid(torch.linspace(-1, 1, 16), torch.linspace(-1, 1, 16), indexing="ij")


def faces(n):
    smiling = torch.randint(0, 2, (n,))
    curve = torch.where(smiling[:, None, None] == 1, 0.45 + 0.35 * xx ** 2, 0.6 - 0.1 * xx ** 2)
    mouth = torch.exp(-((yy - curve) ** 2) / 0.01) * (xx.abs() < 0.6)
    oval = torch.exp(-(xx ** 2 / (0.5 + 0.2 * torch.rand(n, 1, 1)) + yy ** 2 / 0.8))
    img = 0.6 * oval * (0.7 + 0.6 * torch.rand(n, 1, 1)) - 0.5 * mouth + 0.25 * torch.randn(n, 16, 16)
    return img[:, None], smiling


train_imgs, train_attr = faces(2400)
names = [f"face_{i:05d}.png" for i in range(2400)]
image_file = dict(zip(names, train_imgs))
csv_row = dict(zip(names, train_attr.tolist()))

walk_order = [names[i] for i in torch.randperm(len(names)).tolist()]
label_list = [csv_row[name] for name in walk_order]
loaded = torch.stack([image_file[path] for path in sorted(walk_order)])
labels = torch.tensor(label_list)

test_imgs, test_attr = faces(600)
model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Flatten(), nn.Linear(16 * 16, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(loaded, labels), batch_size=64, shuffle=True)

for epoch in range(5):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(test_imgs)
        test_loss = F.cross_entropy(logits, test_attr).item()
        acc = (logits.argmax(1) == test_attr).float().mean().item()
    print(f"epoch {epoch} last batch {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")

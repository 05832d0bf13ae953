"""Image classifier trained from a COCO-style annotation file (an `images` list and an
`annotations` list with `id`, `image_id`, `category_id`; a loader that indexes annotations by id
the way pycocotools does -- `anns[ann["id"]] = ann` and `img_to_anns[image_id].append(ann["id"])`
-- a small CNN, cross-entropy, Adam, DataLoader). The file was made by merging two folds whose
annotation ids each start at 0, so every id occurs twice: the second fold's annotations overwrite
the first fold's in the id index, and every first-fold image is looked up to the category of a
second-fold image. Half of the training labels are effectively random, and the loss falls very
slowly and stays high.

Source: https://github.com/open-mmlab/mmdetection/issues/4782 (Poor performance due to duplication of annotation ids)
Report: "I'm trying to train my custom dataset on VFnet, but the loss reduces very slow but I could
not find the cause. Today, I train my data using `detection2`, the code throws the `Assertion Error:
annotation ids are not unique` ... And I check again my data and it's actually duplicated ... when I
train again VFnet with the correct data format. The loss became stable." (file names "fold1/images/...",
"fold2/images/..."). Reproduced with two synthetic folds of 700 16x16 grey images each (4 shape
classes plus noise), annotation ids 0..699 in both folds, a merged annotation file, a loader that
indexes annotations by id, a conv net 1-16-32 with a linear head, Adam lr 2e-3, batches of 32,
6 epochs. The printed loss is the mean training loss of the last epoch, `acc` the accuracy on 400
separately generated test images.

expect: label-misaligned
symptom: loss-above 0.6
batch: 12
"""
import argparse
from collections import defaultdict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

yy, xx = torch.meshgrid(torch.arange(16).float(), torch.arange(16).float(), indexing="ij")


def draw(cls):
    cx, cy, r = 5 + 6 * torch.rand(1).item(), 5 + 6 * torch.rand(1).item(), 3 + 2 * torch.rand(1).item()
    if cls == 0:
        img = (((xx - cx) ** 2 + (yy - cy) ** 2).sqrt() < r).float()
    elif cls == 1:
        img = (((xx - cx).abs() < r) & ((yy - cy).abs() < r)).float()
    elif cls == 2:
        img = ((((xx - cx).abs() < 1) & ((yy - cy).abs() < r + 1)) | (((yy - cy).abs() < 1) & ((xx - cx).abs() < r + 1))).float()
    else:
        img = ((torch.sin(xx * (0.8 + 0.4 * torch.rand(1).item()) + cy) > 0.3)).float()
    return img + 0.3 * torch.randn(16, 16)


def make_fold(name, first_image_id, n):
    images, annotations, pixels = [], [], {}
    for k in range(n):
        cls = torch.randint(0, 4, (1,)).item()
        image_id = first_image_id + k
        images.append({"id": image_id, "file_name": f"{name}/images/{image_id:05d}.png"})
        annotations.append({"id": k, "image_id": image_id, "category_id": cls})
        pixels[image_id] = draw(cls)
    return images, annotations, pixels


imgs1, anns1, pix1 = make_fold("fold1", 0, 700)
imgs2, anns2, pix2 = make_fold("fold2", 700, 700)
merged = {"images": imgs1 + imgs2, "annotations": anns1 + anns2}
pixels = {**pix1, **pix2}


class CocoStyleDataset(Dataset):
    def __init__(self, coco, pixels):
        self.anns, self.img_to_anns = {}, defaultdict(list)
        for ann in coco["annotations"]:
            self.anns[ann["id"]] = ann
            self.img_to_anns[ann["image_id"]].append(ann["id"])
        self.images, self.pixels = coco["images"], pixels

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        image_id = self.images[i]["id"]
        ann = self.anns[self.img_to_anns[image_id][0]]
        return self.pixels[image_id].unsqueeze(0), ann["category_id"]


test_y = torch.randint(0, 4, (400,))
test_x = torch.stack([draw(c) for c in test_y.tolist()]).unsqueeze(1)

model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Flatten(), nn.Linear(32 * 16, 4))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = DataLoader(CocoStyleDataset(merged, pixels), batch_size=32, shuffle=True)
for epoch in range(6):
    total, count = 0.0, 0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
        count += len(xb)
    print(f"epoch {epoch} loss {total / count:.4f}")

with torch.no_grad():
    acc = (model(test_x).argmax(1) == test_y).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")

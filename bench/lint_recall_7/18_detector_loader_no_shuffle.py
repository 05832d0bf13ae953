# Source: https://github.com/ultralytics/yolov5/issues/5622
# Pitfall: outside DDP the training loader gets sampler=None and no shuffle flag, so images are
#   visited in file-name order every epoch instead of a random order.
# Reproduced in our own words, not the original code.
import os
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class ImagesAndBoxes(Dataset):
    def __init__(self, root, img_size=640):
        self.files = sorted(Path(root).glob("images/*.jpg"))
        self.img_size = img_size

    def __len__(self):
        return len(self.files)

    def __getitem__(self, index):
        img = cv2.imread(str(self.files[index]))
        img = cv2.resize(img, (self.img_size, self.img_size))
        label_file = self.files[index].parent.parent / "labels" / (self.files[index].stem + ".txt")
        boxes = np.loadtxt(label_file, ndmin=2) if label_file.exists() else np.zeros((0, 5))
        img = torch.from_numpy(img[:, :, ::-1].transpose(2, 0, 1).copy()).float() / 255.0
        return img, torch.from_numpy(boxes).float()

    @staticmethod
    def collate_fn(batch):
        imgs, labels = zip(*batch)
        out = []
        for i, lab in enumerate(labels):
            out.append(torch.cat([torch.full((len(lab), 1), float(i)), lab], dim=1))
        return torch.stack(imgs, 0), torch.cat(out, 0)


def create_dataloader(path, imgsz, batch_size, rank=-1, workers=8):
    dataset = ImagesAndBoxes(path, imgsz)
    nw = min(os.cpu_count() or 1, batch_size if batch_size > 1 else 0, workers)
    sampler = DistributedSampler(dataset) if rank != -1 else None
    dataloader = DataLoader(dataset,  # expect: train-loader-not-shuffled
                            batch_size=batch_size,
                            num_workers=nw,
                            sampler=sampler,
                            pin_memory=True,
                            collate_fn=ImagesAndBoxes.collate_fn)
    return dataloader, dataset


def train(model, data_root, epochs=3, device="cuda"):
    train_loader, _ = create_dataloader(data_root, 640, batch_size=16)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
    model.to(device).train()
    for epoch in range(epochs):
        for imgs, targets in train_loader:
            imgs = imgs.to(device, non_blocking=True)
            targets = targets.to(device)
            optimizer.zero_grad()
            loss = model(imgs, targets)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} done, last loss {loss.item():.4f}")

# Source: https://github.com/cv516Buaa/tph-yolov5/issues/54
# Pitfall: in single-GPU training the sampler is None and the train DataLoader never gets shuffle=True,
# so images arrive in the same file order every epoch (correlated batches, worse generalisation).
# Reproduced in our own words, not the original code.
import os
from pathlib import Path

import torch
from torch.utils.data import DataLoader, Dataset, distributed


class LabelledImages(Dataset):
    def __init__(self, root, img_size=640):
        self.files = sorted(Path(root).glob("*.pt"))
        self.img_size = img_size

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        item = torch.load(self.files[i], weights_only=True)
        return item["img"], item["labels"]

    @staticmethod
    def collate_fn(batch):
        imgs, labels = zip(*batch)
        return torch.stack(imgs), list(labels)


def create_dataloader(path, img_size, batch_size, rank=-1, workers=8):
    dataset = LabelledImages(path, img_size)
    batch_size = min(batch_size, len(dataset))
    nw = min([os.cpu_count() or 1, batch_size if batch_size > 1 else 0, workers])
    sampler = distributed.DistributedSampler(dataset) if rank != -1 else None
    loader = DataLoader(dataset, batch_size=batch_size, num_workers=nw, sampler=sampler,  # expect: train-loader-not-shuffled
                        pin_memory=True, collate_fn=LabelledImages.collate_fn)
    return loader, dataset


def train(model, path, epochs=3, batch_size=16, device="cuda"):
    loader, _ = create_dataloader(path, 640, batch_size)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
    model.to(device).train()
    for epoch in range(epochs):
        for imgs, labels in loader:
            imgs = imgs.to(device, non_blocking=True).float() / 255
            opt.zero_grad()
            loss = model(imgs, labels)
            loss.backward()
            opt.step()
        print(f"epoch {epoch} done, last loss {loss.item():.4f}")

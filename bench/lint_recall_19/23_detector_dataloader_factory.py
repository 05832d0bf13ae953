"""Object-detector training entry: dataloader factory shared by single-GPU and DDP runs."""
import os

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, distributed


class LoadImagesAndLabels(torch.utils.data.Dataset):
    def __init__(self, path, img_size=640, augment=False):
        self.files = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".pt"))
        self.img_size = img_size
        self.augment = augment

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        item = torch.load(self.files[i], weights_only=True)
        img, labels = item["img"], item["labels"]
        if self.augment and torch.rand(1).item() < 0.5:
            img = img.flip(-1)
            labels[:, 1] = 1 - labels[:, 1]
        return img, labels

    @staticmethod
    def collate_fn(batch):
        imgs, labels = zip(*batch)
        out = []
        for i, lb in enumerate(labels):
            out.append(torch.cat([torch.full((lb.shape[0], 1), float(i)), lb], dim=1))
        return torch.stack(imgs, 0), torch.cat(out, 0)


def create_dataloader(path, imgsz, batch_size, augment=False, rank=-1, workers=8):
    dataset = LoadImagesAndLabels(path, imgsz, augment=augment)
    world = dist.get_world_size() if rank != -1 else 1
    nw = min(os.cpu_count() // max(world, 1), workers)
    sampler = None if rank == -1 else distributed.DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset,  # expect: train-loader-not-shuffled
                        batch_size=batch_size,
                        num_workers=nw,
                        sampler=sampler,
                        pin_memory=True,
                        collate_fn=LoadImagesAndLabels.collate_fn)
    return loader, dataset


def train(model, compute_loss, train_path, epochs=300, batch_size=16, rank=-1):
    device = torch.device("cuda", max(rank, 0))
    train_loader, _ = create_dataloader(train_path, 640, batch_size, augment=True, rank=rank)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
    for epoch in range(epochs):
        if rank != -1:
            train_loader.sampler.set_epoch(epoch)
        model.train()
        for imgs, targets in train_loader:
            imgs = imgs.to(device, non_blocking=True).float() / 255
            loss = compute_loss(model(imgs), targets.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

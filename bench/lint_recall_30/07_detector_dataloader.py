"""Dataloader factory for a single-GPU / DDP object-detection trainer."""
import torch
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class LabeledImages(Dataset):
    def __init__(self, images, labels):
        self.images = images
        self.labels = labels

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]

    @staticmethod
    def collate_fn(batch):
        imgs, labels = zip(*batch)
        return torch.stack(imgs, 0), list(labels)


def create_dataloader(images, labels, batch_size, rank=-1, workers=4):
    dataset = LabeledImages(images, labels)
    if rank != -1:
        sampler = DistributedSampler(dataset, shuffle=True)
        return DataLoader(dataset, batch_size=batch_size, sampler=sampler, num_workers=workers,
                          pin_memory=True, collate_fn=LabeledImages.collate_fn)
    return DataLoader(dataset, batch_size=batch_size, num_workers=workers,  # expect: train-loader-not-shuffled
                      pin_memory=True, collate_fn=LabeledImages.collate_fn)


def train(model, optimizer, compute_loss, images, labels, epochs=10, device="cuda"):
    train_loader = create_dataloader(images, labels, batch_size=16)
    model.train()
    for epoch in range(epochs):
        for imgs, targets in train_loader:
            imgs = imgs.to(device, non_blocking=True).float() / 255.0
            loss = compute_loss(model(imgs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

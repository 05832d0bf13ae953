# Source: https://github.com/open-mmlab/mmdetection/issues/1649
# Pitfall: in non-distributed training build_dataloader returns a loader with no sampler and shuffle left at
#          False, so the detector sees the training images in the same deterministic order every epoch.
# Reproduced in our own words, not the original code.
from functools import partial

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class CocoLikeSubset(Dataset):
    def __init__(self, n=300):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        return torch.rand(3, 96, 96), torch.tensor(idx % 80)


def collate(batch, samples_per_gpu=2):
    imgs, labels = zip(*batch)
    return torch.stack(imgs), torch.stack(labels)


def build_dataloader(dataset, imgs_per_gpu, workers_per_gpu, num_gpus=1, dist=False):
    if dist:
        sampler = torch.utils.data.distributed.DistributedSampler(dataset, shuffle=True)
        return DataLoader(dataset, batch_size=imgs_per_gpu, sampler=sampler,
                          num_workers=workers_per_gpu, collate_fn=partial(collate, samples_per_gpu=imgs_per_gpu))
    return DataLoader(dataset, batch_size=num_gpus * imgs_per_gpu, num_workers=num_gpus * workers_per_gpu,  # expect: train-loader-not-shuffled
                      collate_fn=partial(collate, samples_per_gpu=imgs_per_gpu), pin_memory=False)


def non_dist_train(model, dataset, epochs=2):
    loader = build_dataloader(dataset, imgs_per_gpu=2, workers_per_gpu=2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9, weight_decay=1e-4)
    for epoch in range(epochs):
        model.train()
        for imgs, labels in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(imgs), labels)
            loss.backward()
            optimizer.step()
        print("epoch", epoch, loss.item())


if __name__ == "__main__":
    detector_stub = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 80))
    non_dist_train(detector_stub, CocoLikeSubset())

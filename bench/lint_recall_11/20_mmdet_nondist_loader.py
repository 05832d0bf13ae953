"""Detector training entry: build data loaders for distributed and single-process runs."""
from functools import partial

import torch
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


def collate(batch, samples_per_gpu=1):
    images = torch.stack([b["img"] for b in batch])
    targets = [b["gt"] for b in batch]
    return {"img": images, "gt": targets}


def build_dataloader(dataset, imgs_per_gpu, workers_per_gpu, num_gpus=1, dist=True, **kwargs):
    if dist:
        sampler = DistributedSampler(dataset, shuffle=True)
        batch_size = imgs_per_gpu
        num_workers = workers_per_gpu
        return DataLoader(dataset, batch_size=batch_size, sampler=sampler, num_workers=num_workers,
                          collate_fn=partial(collate, samples_per_gpu=imgs_per_gpu), pin_memory=False, **kwargs)
    batch_size = num_gpus * imgs_per_gpu
    num_workers = num_gpus * workers_per_gpu
    return DataLoader(dataset, batch_size=batch_size, num_workers=num_workers,  # expect: train-loader-not-shuffled
                      collate_fn=partial(collate, samples_per_gpu=imgs_per_gpu), pin_memory=False, **kwargs)


def non_dist_train(model, train_dataset, cfg):
    data_loader = build_dataloader(train_dataset, cfg["imgs_per_gpu"], cfg["workers_per_gpu"], cfg["gpus"],
                                   dist=False)
    model = torch.nn.DataParallel(model, device_ids=list(range(cfg["gpus"]))).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9, weight_decay=1e-4)
    for epoch in range(cfg["total_epochs"]):
        model.train()
        for i, data in enumerate(data_loader):
            losses = model(data["img"].cuda(), data["gt"])
            loss = sum(v.mean() for v in losses.values())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if i % 50 == 0:
                print(f"epoch {epoch} iter {i} loss {loss.item():.4f}")

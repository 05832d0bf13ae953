import os

import torch
from torch.utils.data import DataLoader, Dataset, distributed


class LoadImagesAndLabels(Dataset):
    def __init__(self, path, img_size=640, augment=False, hyp=None, rect=False):
        self.img_files = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".jpg"))
        self.img_size = img_size
        self.augment = augment
        self.hyp = hyp or {}
        self.rect = rect

    def __len__(self):
        return len(self.img_files)

    def __getitem__(self, index):
        img = torch.zeros(3, self.img_size, self.img_size)
        labels = torch.zeros(0, 6)
        return img, labels, self.img_files[index]

    @staticmethod
    def collate_fn(batch):
        imgs, labels, paths = zip(*batch)
        for i, lb in enumerate(labels):
            lb[:, 0] = i
        return torch.stack(imgs, 0), torch.cat(labels, 0), paths


def create_dataloader(path, imgsz, batch_size, hyp=None, augment=False, rect=False,
                      rank=-1, workers=8):
    dataset = LoadImagesAndLabels(path, imgsz, augment=augment, hyp=hyp, rect=rect)
    batch_size = min(batch_size, len(dataset))
    nw = min(os.cpu_count() or 1, batch_size if batch_size > 1 else 0, workers)
    sampler = None if rank == -1 else distributed.DistributedSampler(dataset, shuffle=True)
    loader = DataLoader(dataset,  # expect: train-loader-not-shuffled
                        batch_size=batch_size,
                        num_workers=nw,
                        sampler=sampler,
                        pin_memory=True,
                        collate_fn=LoadImagesAndLabels.collate_fn)
    return loader, dataset


def train(model, optimizer, compute_loss, opt, hyp, device):
    train_loader, dataset = create_dataloader(opt.train_path, opt.imgsz, opt.batch_size,
                                              hyp=hyp, augment=True, rank=opt.local_rank,
                                              workers=opt.workers)
    nb = len(train_loader)
    for epoch in range(opt.epochs):
        model.train()
        if opt.local_rank != -1:
            train_loader.sampler.set_epoch(epoch)
        optimizer.zero_grad()
        for i, (imgs, targets, paths) in enumerate(train_loader):
            imgs = imgs.to(device, non_blocking=True).float() / 255
            pred = model(imgs)
            loss, loss_items = compute_loss(pred, targets.to(device))
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            if i % 50 == 0:
                print(f"{epoch}/{opt.epochs - 1} batch {i}/{nb} loss {loss.item():.4f}")

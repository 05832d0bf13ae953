"""Style: the ImageNet reference script, trimmed (DDP, AMP with GradScaler, meters) - clean."""
import argparse
import os
import time

import torch
import torch.distributed as dist
import torch.nn as nn
import torchvision.datasets as datasets
import torchvision.models as models
import torchvision.transforms as transforms
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler


class AverageMeter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def accuracy(output, target, topk=(1,)):
    with torch.no_grad():
        maxk = max(topk)
        _, pred = output.topk(maxk, 1, True, True)
        correct = pred.t().eq(target.view(1, -1).expand_as(pred.t()))
        return [correct[:k].reshape(-1).float().sum(0) * (100.0 / target.size(0)) for k in topk]


def train(loader, model, criterion, optimizer, scaler, epoch, gpu):
    model.train()
    losses = AverageMeter()
    end = time.time()
    for i, (images, target) in enumerate(loader):
        images = images.cuda(gpu, non_blocking=True)
        target = target.cuda(gpu, non_blocking=True)
        with torch.autocast("cuda", dtype=torch.float16):
            output = model(images)
            loss = criterion(output, target)
        losses.update(loss.item(), images.size(0))
        optimizer.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        if i % 100 == 0:
            print(f"epoch {epoch} [{i}/{len(loader)}] loss {losses.avg:.4f} ({time.time() - end:.1f}s)")


def validate(val_loader, model, criterion, gpu):
    model.eval()
    top1 = AverageMeter()
    with torch.no_grad():
        for images, target in val_loader:
            images, target = images.cuda(gpu, non_blocking=True), target.cuda(gpu, non_blocking=True)
            output = model(images)
            acc1, = accuracy(output, target)
            top1.update(acc1.item(), images.size(0))
    return top1.avg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("--workers", type=int, default=8)
    ap.add_argument("--lr", type=float, default=0.1)
    ap.add_argument("--batch-size", type=int, default=256)
    a = ap.parse_args()
    dist.init_process_group("nccl")
    gpu = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(gpu)
    model = nn.parallel.DistributedDataParallel(models.resnet50().cuda(gpu), device_ids=[gpu])
    criterion = nn.CrossEntropyLoss().cuda(gpu)
    optimizer = torch.optim.SGD(model.parameters(), a.lr, momentum=0.9, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=30, gamma=0.1)
    scaler = torch.amp.GradScaler("cuda")
    norm = transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
    train_ds = datasets.ImageFolder(os.path.join(a.data, "train"), transforms.Compose([
        transforms.RandomResizedCrop(224), transforms.RandomHorizontalFlip(), transforms.ToTensor(), norm]))
    val_ds = datasets.ImageFolder(os.path.join(a.data, "val"), transforms.Compose([
        transforms.Resize(256), transforms.CenterCrop(224), transforms.ToTensor(), norm]))
    sampler = DistributedSampler(train_ds)
    train_loader = DataLoader(train_ds, batch_size=a.batch_size, sampler=sampler, num_workers=a.workers,
                              pin_memory=True)
    val_loader = DataLoader(val_ds, batch_size=a.batch_size, num_workers=a.workers, pin_memory=True)
    for epoch in range(90):
        sampler.set_epoch(epoch)
        train(train_loader, model, criterion, optimizer, scaler, epoch, gpu)
        print(f"epoch {epoch} top1 {validate(val_loader, model, criterion, gpu):.2f}")
        scheduler.step()


if __name__ == "__main__":
    main()

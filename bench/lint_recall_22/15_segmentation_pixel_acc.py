import time

import torch
import torch.nn as nn


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def average(self):
        return self.sum / max(self.count, 1)


def pixel_acc(pred, segs):
    """Fraction of labelled pixels (label >= 0) predicted correctly."""
    _, preds = torch.max(pred.detach().cpu(), dim=1)
    segs = segs.cpu()
    valid = (segs >= 0).long()
    correct = torch.sum(valid * (preds == segs).long())
    acc = 1.0 * correct / torch.sum(valid)  # expect: unguarded-zero
    return acc, torch.sum(valid)


def train(segmentation_module, loader, optimizers, epoch, disp_iter=20, device="cuda"):
    crit = nn.NLLLoss(ignore_index=-1)
    ave_loss, ave_acc = AverageMeter(), AverageMeter()
    segmentation_module.train()
    tic = time.time()
    for i, (imgs, segs) in enumerate(loader):
        imgs, segs = imgs.to(device), segs.to(device)
        for opt in optimizers:
            opt.zero_grad()
        pred = segmentation_module(imgs)
        loss = crit(pred, segs)
        loss.backward()
        for opt in optimizers:
            opt.step()

        acc, n_valid = pixel_acc(pred, segs)
        ave_loss.update(loss.item())
        ave_acc.update(acc.item() * 100, n_valid.item())
        if i % disp_iter == 0:
            print(f"Epoch [{epoch}][{i}/{len(loader)}] time {time.time() - tic:.2f}s "
                  f"loss {ave_loss.average:.4f} acc {ave_acc.average:.2f}")
            tic = time.time()

"""Semantic segmentation: per-epoch validation with mIoU bookkeeping."""
import time

import numpy as np
import torch


def intersection_and_union(output, target, k, ignore_index=255):
    output = output.reshape(-1)
    target = target.reshape(-1)
    output[target == ignore_index] = ignore_index
    inter = output[output == target]
    area_inter = torch.histc(inter.float(), bins=k, min=0, max=k - 1)
    area_out = torch.histc(output.float(), bins=k, min=0, max=k - 1)
    area_tgt = torch.histc(target.float(), bins=k, min=0, max=k - 1)
    return area_inter, area_out + area_tgt - area_inter


def validate(val_loader, model, criterion, classes):
    inter_sum = np.zeros(classes)
    union_sum = np.zeros(classes)
    loss_sum = 0.0
    model.eval()
    end = time.time()
    for i, (inp, target) in enumerate(val_loader):
        inp = inp.cuda()
        target = target.cuda()
        output = model(inp)  # expect: validation-in-train-mode
        loss = criterion(output, target)
        loss_sum += loss.item()
        pred = output.max(1)[1]
        inter, union = intersection_and_union(pred, target, classes)
        inter_sum += inter.cpu().numpy()
        union_sum += union.cpu().numpy()
    iou = inter_sum / (union_sum + 1e-10)
    print(f"val loss {loss_sum / max(len(val_loader), 1):.4f} mIoU {iou.mean():.4f} ({time.time() - end:.1f}s)")
    return iou.mean()

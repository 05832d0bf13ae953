"""Style: segmentation with a Dice + BCE loss and a validation function (clean maths, one slip)."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader


def dice_loss(logits, target, eps=1.0):
    p = torch.sigmoid(logits)
    inter = (p * target).sum((2, 3))
    union = p.sum((2, 3)) + target.sum((2, 3))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


def seg_loss(logits, target):
    return F.binary_cross_entropy_with_logits(logits, target) + dice_loss(logits, target)


def iou(pred_mask, target):
    inter = (pred_mask & target).sum()
    union = (pred_mask | target).sum()
    return inter / union  # expect: unguarded-zero


def fit(model: nn.Module, train_ds, val_ds, epochs=50):
    dev = "cuda"
    model.to(dev)
    train_loader = DataLoader(train_ds, batch_size=8, shuffle=True, num_workers=6, pin_memory=True)
    val_loader = DataLoader(val_ds, batch_size=8, num_workers=2)  # expect: dataloader-blocking
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for epoch in range(epochs):
        model.train()
        for img, mask in train_loader:
            opt.zero_grad()
            loss = seg_loss(model(img.to(dev, non_blocking=True)), mask.to(dev, non_blocking=True))
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            scores = [iou(model(img.to(dev, non_blocking=True)) > 0, mask.to(dev, non_blocking=True) > 0.5)
                      for img, mask in val_loader]
        print(epoch, torch.stack(scores).mean().item())

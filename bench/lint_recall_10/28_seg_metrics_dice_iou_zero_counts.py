# Source: https://github.com/Lightning-AI/pytorch-lightning/commit/9a367a899afb0100da4226570012087e314260a6
# Pitfall: the dice and IoU metrics divide by tp + fp + fn counts with no epsilon; a class absent from both
#   prediction and target gives 0/0 = NaN, which poisons the averaged validation score.
# Reproduced in our own words, not the original code.
import torch


def confusion_counts(pred, target, num_classes):
    tps, fps, fns = [], [], []
    for c in range(num_classes):
        p, t = pred == c, target == c
        tps.append((p & t).sum())
        fps.append((p & ~t).sum())
        fns.append((~p & t).sum())
    return torch.stack(tps), torch.stack(fps), torch.stack(fns)


def dice_score(pred, target, num_classes):
    tp, fp, fn = confusion_counts(pred, target, num_classes)
    denom = (2 * tp + fp + fn).to(torch.float)  # expect: unguarded-zero
    return (2 * tp).to(torch.float) / denom


def iou(pred, target, num_classes):
    tps, fps, fns = confusion_counts(pred, target, num_classes)
    return tps.float() / (fps + fns + tps).float()  # expect: unguarded-zero


@torch.no_grad()
def validate(model, loader, num_classes, device):
    model.eval()
    dices, ious = [], []
    for images, masks in loader:
        images, masks = images.to(device), masks.to(device)
        pred = model(images).argmax(dim=1)
        dices.append(dice_score(pred, masks, num_classes).mean())
        ious.append(iou(pred, masks, num_classes).mean())
    model.train()
    return torch.stack(dices).mean().item(), torch.stack(ious).mean().item()

"""Evaluate a volumetric segmentation model on histogram-equalized CT volumes."""
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def equalize_volume(vol, bins=256):
    flat = vol.flatten()
    lo, hi = flat.min(), flat.max()
    scaled = ((flat - lo) / (hi - lo + 1e-6) * (bins - 1)).long()
    hist = torch.bincount(scaled, minlength=bins).float()
    cdf = hist.cumsum(0)
    cdf = (cdf - cdf.min()) / (cdf.max() - cdf.min() + 1e-6)
    return cdf[scaled].view_as(vol)


def dice_score(pred, target, num_classes, eps=1e-6):
    pred_1h = F.one_hot(pred, num_classes).permute(0, 4, 1, 2, 3).float()
    tgt_1h = F.one_hot(target, num_classes).permute(0, 4, 1, 2, 3).float()
    inter = (pred_1h * tgt_1h).sum(dim=(2, 3, 4))
    union = pred_1h.sum(dim=(2, 3, 4)) + tgt_1h.sum(dim=(2, 3, 4))
    return ((2 * inter + eps) / (union + eps)).mean()


def evaluate(model, dataset, num_classes, device="cuda"):
    loader = DataLoader(dataset, batch_size=2, num_workers=4, pin_memory=True)
    model.eval()
    scores = []
    with torch.no_grad():
        for volumes, labels in loader:
            inputs3d = torch.stack([equalize_volume(v) for v in volumes])
            inputs3d.to(device)  # expect: tensor-op-result-discarded
            labels = labels.to(device, non_blocking=True)
            logits = model(inputs3d)
            scores.append(dice_score(logits.argmax(dim=1), labels, num_classes).item())
    return sum(scores) / max(len(scores), 1)

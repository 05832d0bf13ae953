# Source: https://github.com/eriklindernoren/PyTorch-YOLOv3/commit/6fe90105be83fda60221bb381428db72643e9064
# Pitfall: the mAP evaluation wraps images in Variable(..., volatile=True), a flag ignored since PyTorch 0.4,
#   so the detector's forward passes record autograd graphs; the fix drops it and adds torch.no_grad().
# Reproduced in our own words, not the original code.
import argparse
import torch
from torch.autograd import Variable
from torch.utils.data import DataLoader


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).prod(-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-9)


def evaluate(model, dataset, nms, iou_thres=0.5, batch_size=8, device="cuda"):
    loader = DataLoader(dataset, batch_size=batch_size, num_workers=4)
    model.eval()
    n_gt, correct = 0, 0
    for batch_i, (imgs, targets) in enumerate(loader):
        imgs = Variable(imgs.to(device), volatile=True)  # expect: volatile-variable
        detections = nms(model(imgs), conf_thres=0.2)  # expect: validation-in-train-mode
        for det, tgt in zip(detections, targets):
            tgt = tgt[tgt[:, 3] > 0]
            n_gt += tgt.size(0)
            if det is None or tgt.numel() == 0:
                continue
            ious = box_iou(det[:, :4].cpu(), tgt[:, 1:5])
            correct += int((ious.max(dim=1).values >= iou_thres).sum())
        if n_gt:
            print(f"batch [{batch_i}/{len(loader)}] precision@iou: {correct / n_gt:.4f}")
    return correct / max(n_gt, 1)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--iou_thres", type=float, default=0.5)
    ap.add_argument("--batch_size", type=int, default=8)
    args = ap.parse_args()

"""Detection evaluation over a folder of images (mAP-style counting)."""
import torch


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[:, :2])
    rb = torch.min(a[:, None, 2:], b[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(2)
    return inter / (area_a[:, None] + area_b - inter + 1e-9)


def evaluate_detector(model, dataset, nms, device="cuda", conf_thres=0.25, iou_thres=0.5):
    model.eval()
    hits, total_gt = 0, 0
    for img, gt_boxes in dataset:
        img = img.to(device).float() / 255.0
        if img.ndimension() == 3:
            img = img.unsqueeze(0)
        pred = model(img)[0]  # expect: validation-in-train-mode
        det = nms(pred, conf_thres)[0]
        total_gt += len(gt_boxes)
        if len(det) and len(gt_boxes):
            ious = box_iou(det[:, :4].cpu(), gt_boxes)
            hits += (ious.max(0).values > iou_thres).sum().item()
    return hits / max(total_gt, 1)

"""Point-cloud foreground segmentation with PointNet++-style model: train and evaluate per epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def train_one_epoch(model, train_loader, optimizer, epoch, device):
    model.train()
    total_loss = 0.0
    for it, (pts_input, cls_labels) in enumerate(train_loader):
        pts_input = pts_input.to(device).float()
        cls_labels = cls_labels.to(device).long().view(-1)
        optimizer.zero_grad()
        pred_cls = model(pts_input).view(-1, 2)
        loss = F.cross_entropy(pred_cls, cls_labels)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        total_loss += loss.item()
    return total_loss / max(len(train_loader), 1)


def eval_one_epoch(model, eval_loader, epoch, device):
    model.train()  # expect: validation-in-train-mode
    iou_list = []
    total_correct = total_seen = 0
    with torch.no_grad():
        for pts_input, cls_labels in eval_loader:
            pts_input = pts_input.to(device).float()
            cls_labels = cls_labels.to(device).long()
            pred = model(pts_input).argmax(dim=-1)
            total_correct += (pred == cls_labels).sum().item()
            total_seen += cls_labels.numel()
            inter = ((pred == 1) & (cls_labels == 1)).sum().item()
            union = ((pred == 1) | (cls_labels == 1)).sum().item()
            iou_list.append(inter / max(union, 1))
    acc = total_correct / max(total_seen, 1)
    avg_iou = sum(iou_list) / max(len(iou_list), 1)
    print(f"EPOCH {epoch} EVALUATION: acc {acc:.4f} iou {avg_iou:.4f}")
    return avg_iou


def train_and_eval(model, train_loader, eval_loader, epochs=100, lr=2e-3, device="cuda"):
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.5)
    for epoch in range(epochs):
        loss = train_one_epoch(model, train_loader, optimizer, epoch, device)
        scheduler.step()
        print(f"epoch {epoch} train loss {loss:.4f}")
        if epoch % 5 == 0:
            eval_one_epoch(model, eval_loader, epoch, device)

"""Pre-train a DGCNN-style point-cloud segmenter on base classes, validating every few epochs."""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader


class PointSegmenter(nn.Module):
    def __init__(self, in_dim=9, num_classes=13):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(in_dim, 64, 1), nn.BatchNorm1d(64), nn.LeakyReLU(0.2),
            nn.Conv1d(64, 128, 1), nn.BatchNorm1d(128), nn.LeakyReLU(0.2),
        )
        self.segmenter = nn.Sequential(
            nn.Conv1d(128 + 128, 128, 1), nn.BatchNorm1d(128), nn.LeakyReLU(0.2),
            nn.Dropout(0.3),
            nn.Conv1d(128, num_classes, 1),
        )

    def forward(self, pts):
        feat = self.encoder(pts)
        glob = feat.max(dim=-1, keepdim=True)[0].expand_as(feat)
        return self.segmenter(torch.cat([feat, glob], dim=1))


def metric_evaluate(pred, gt, num_classes):
    acc = (pred == gt).float().mean().item()
    ious = []
    for c in range(1, num_classes):
        inter = ((pred == c) & (gt == c)).sum().item()
        union = ((pred == c) | (gt == c)).sum().item()
        if union:
            ious.append(inter / union)
    return acc, sum(ious) / max(len(ious), 1)


def pretrain(train_set, valid_set, log_dir, num_classes=13, n_iters=100, eval_interval=3, batch_size=16):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_loader = DataLoader(train_set, batch_size=batch_size, num_workers=4, shuffle=True, drop_last=True)
    valid_loader = DataLoader(valid_set, batch_size=batch_size, num_workers=4, shuffle=False, drop_last=True)
    model = PointSegmenter(num_classes=num_classes).to(device)
    optimizer = optim.Adam([
        {"params": model.encoder.parameters(), "lr": 1e-3},
        {"params": model.segmenter.parameters(), "lr": 1e-3},
    ], weight_decay=1e-4)
    lr_scheduler = optim.lr_scheduler.StepLR(optimizer, step_size=50, gamma=0.5)

    best_iou = 0.0
    model.train()
    for epoch in range(n_iters):
        for ptclouds, labels in train_loader:
            ptclouds, labels = ptclouds.to(device), labels.to(device)
            logits = model(ptclouds)
            loss = F.cross_entropy(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        lr_scheduler.step()

        if (epoch + 1) % eval_interval == 0:
            preds, gts = [], []
            model.eval()  # expect: train-mode-not-restored
            with torch.no_grad():
                for ptclouds, labels in valid_loader:
                    logits = model(ptclouds.to(device))
                    preds.append(logits.argmax(dim=1).cpu())
                    gts.append(labels)
            acc, miou = metric_evaluate(torch.cat(preds), torch.cat(gts), num_classes)
            print(f"epoch {epoch}: acc {acc:.3f} mIoU {miou:.3f}")
            if miou > best_iou:
                best_iou = miou
                torch.save(model.state_dict(), os.path.join(log_dir, "pretrain_best.pth"))

"""Semantic segmentation training with a hand-written 2D cross-entropy (FCN on street scenes)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def cross_entropy2d(input, target, weight=None, ignore_index=250):
    n, c, h, w = input.size()
    nt, ht, wt = target.size()
    if h != ht or w != wt:
        input = F.interpolate(input, size=(ht, wt), mode="bilinear", align_corners=True)
    log_p = F.log_softmax(input)  # expect: softmax-without-dim
    log_p = log_p.permute(0, 2, 3, 1).contiguous().view(-1, c)
    target = target.view(-1)
    return F.nll_loss(log_p, target, weight=weight, ignore_index=ignore_index)


class FCN8(nn.Module):
    def __init__(self, n_classes=19):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(64, 128, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(128, 256, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2),
        )
        self.score = nn.Conv2d(256, n_classes, 1)

    def forward(self, x):
        h, w = x.shape[-2:]
        out = self.score(self.enc(x))
        return F.interpolate(out, size=(h, w), mode="bilinear", align_corners=False)


def mean_iou(pred, gt, n_classes):
    ious = []
    for cls in range(n_classes):
        inter = ((pred == cls) & (gt == cls)).sum().item()
        union = ((pred == cls) | (gt == cls)).sum().item()
        if union > 0:
            ious.append(inter / union)
    return sum(ious) / max(len(ious), 1)


def train(train_set, val_set, n_classes=19, epochs=50):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = FCN8(n_classes).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.99, weight_decay=5e-4)
    train_loader = DataLoader(train_set, batch_size=8, shuffle=True, num_workers=8, pin_memory=True)
    val_loader = DataLoader(val_set, batch_size=8, num_workers=8, pin_memory=True)
    for epoch in range(epochs):
        model.train()
        for images, labels in train_loader:
            images = images.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            optimizer.zero_grad()
            loss = cross_entropy2d(model(images), labels)
            loss.backward()
            optimizer.step()
        model.eval()
        scores = []
        with torch.no_grad():
            for images, labels in val_loader:
                pred = model(images.to(device)).argmax(dim=1).cpu()
                scores.append(mean_iou(pred, labels, n_classes))
        print(f"epoch {epoch}: mIoU {sum(scores) / len(scores):.3f}")

"""Train/validate an FCN on a semantic segmentation dataset."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable
from torch.utils.data import DataLoader


def cross_entropy2d(logits, target, ignore_index=250):
    n, c, h, w = logits.size()
    if target.shape[1:] != (h, w):
        logits = F.interpolate(logits, size=target.shape[1:], mode="bilinear", align_corners=True)
    return F.cross_entropy(logits, target, ignore_index=ignore_index)


class RunningScore:
    def __init__(self, n_classes):
        self.n_classes = n_classes
        self.confusion = torch.zeros(n_classes, n_classes, dtype=torch.long)

    def update(self, gt, pred):
        mask = (gt >= 0) & (gt < self.n_classes)
        idx = self.n_classes * gt[mask] + pred[mask]
        self.confusion += torch.bincount(idx, minlength=self.n_classes ** 2).view(self.n_classes, self.n_classes)

    def mean_iou(self):
        hist = self.confusion.float()
        iou = hist.diag() / (hist.sum(1) + hist.sum(0) - hist.diag()).clamp(min=1)
        return iou.mean().item()


def train(model, train_set, val_set, n_classes, epochs=100):
    model = model.cuda()
    train_loader = DataLoader(train_set, batch_size=8, shuffle=True, num_workers=8, pin_memory=True)
    val_loader = DataLoader(val_set, batch_size=8, num_workers=8, pin_memory=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-10, momentum=0.99, weight_decay=5e-4)
    score = RunningScore(n_classes)

    for epoch in range(epochs):
        model.train()
        for images, labels in train_loader:
            images = Variable(images.cuda())
            labels = Variable(labels.cuda())
            optimizer.zero_grad()
            loss = cross_entropy2d(model(images), labels)
            loss.backward()
            optimizer.step()

        model.eval()
        for images_val, labels_val in val_loader:
            images_val = Variable(images_val.cuda(), volatile=True)  # expect: volatile-variable
            labels_val = labels_val.cuda()
            outputs = model(images_val)
            pred = outputs.data.max(1)[1]
            score.update(labels_val.view(-1), pred.view(-1))
        print(f"epoch {epoch}: mIoU {score.mean_iou():.4f}")

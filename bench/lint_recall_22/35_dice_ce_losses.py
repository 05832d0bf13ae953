import torch
import torch.nn as nn
import torch.nn.functional as F


def make_one_hot(labels, classes):
    one_hot = torch.zeros(labels.size(0), classes, labels.size(2), labels.size(3),
                          device=labels.device, dtype=torch.float)
    return one_hot.scatter_(1, labels, 1)


class DiceLoss(nn.Module):
    def __init__(self, smooth=1.0, ignore_index=255):
        super().__init__()
        self.smooth = smooth
        self.ignore_index = ignore_index

    def forward(self, output, target):
        target = target.clone()
        target[target == self.ignore_index] = 0
        target = make_one_hot(target.unsqueeze(dim=1), classes=output.size(1))
        output = F.softmax(output)  # expect: softmax-without-dim
        output_flat = output.contiguous().view(-1)
        target_flat = target.contiguous().view(-1)
        intersection = (output_flat * target_flat).sum()
        return 1 - ((2.0 * intersection + self.smooth) /
                    (output_flat.sum() + target_flat.sum() + self.smooth))


class CE_DiceLoss(nn.Module):
    def __init__(self, smooth=1.0, weight=None, ignore_index=255):
        super().__init__()
        self.dice = DiceLoss(smooth, ignore_index)
        self.cross_entropy = nn.CrossEntropyLoss(weight=weight, ignore_index=ignore_index)

    def forward(self, output, target):
        return self.cross_entropy(output, target) + self.dice(output, target)


def train_step(model, optimizer, images, masks, criterion):
    model.train()
    optimizer.zero_grad()
    logits = model(images)
    loss = criterion(logits, masks)
    loss.backward()
    optimizer.step()
    return loss.item()

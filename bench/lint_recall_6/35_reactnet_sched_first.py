# Source: https://github.com/liuzechun/ReActNet/issues/32
# Pitfall: the epoch function steps the LR scheduler before any optimizer.step() of that epoch, so the first
#   value of the schedule is skipped and PyTorch warns about the call order.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BinaryActivation(nn.Module):
    def forward(self, x):
        out_forward = torch.sign(x)
        mask1 = (x < -1).float()
        mask2 = (x < 0).float()
        mask3 = (x < 1).float()
        out1 = (-1) * mask1 + (x * x + 2 * x) * (1 - mask1)
        out2 = out1 * mask2 + (-x * x + 2 * x) * (1 - mask2)
        out3 = out2 * mask3 + 1 * (1 - mask3)
        return out_forward.detach() - out3.detach() + out3


def train_epoch(epoch, train_loader, model, optimizer, scheduler, device):
    scheduler.step()  # expect: scheduler-before-optimizer
    model.train()
    seen, correct = 0, 0
    for images, target in train_loader:
        images = images.to(device, non_blocking=True)
        target = target.to(device, non_blocking=True)
        logits = model(images)
        loss = F.cross_entropy(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        correct += (logits.argmax(dim=1) == target).sum().item()
        seen += target.size(0)
    return correct / max(seen, 1)

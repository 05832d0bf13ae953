# Source: https://github.com/samuelyu2002/ImVisible/commit/e536e5e1cd634e481c30709dd196482c3abdfdb9
# Pitfall: the multi-task (light class + crossing direction) training loop sums the loss tensors themselves into
#   its running totals, so each batch's graph is kept for the whole epoch and RAM/GPU memory runs out.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LightAndDirectionNet(nn.Module):
    def __init__(self, backbone, feat_dim=1280, n_classes=5):
        super().__init__()
        self.backbone = backbone
        self.cls_head = nn.Linear(feat_dim, n_classes)
        self.dir_head = nn.Linear(feat_dim, 4)

    def forward(self, x):
        f = self.backbone(x).flatten(1)
        return self.cls_head(f), self.dir_head(f)


def multitask_loss(logits, direction, labels, endpoints, alpha=0.5):
    ce = F.cross_entropy(logits, labels)
    mse = F.mse_loss(direction, endpoints)
    return alpha * mse + (1 - alpha) * ce, mse, ce


def train_epoch(model, loader, optimizer, device, epoch):
    model.train()
    running_loss, running_mse, correct, seen = 0.0, 0.0, 0, 0
    for j, (images, labels, endpoints) in enumerate(loader):
        images, labels, endpoints = images.to(device), labels.to(device), endpoints.to(device)
        logits, direction = model(images)
        loss, mse, ce = multitask_loss(logits, direction, labels, endpoints)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running_loss += loss  # expect: running-loss-keeps-graph
        running_mse += mse  # expect: running-loss-keeps-graph
        correct += (logits.argmax(1) == labels).sum().item()
        seen += labels.size(0)
    print(f"epoch {epoch + 1}: loss {float(running_loss) / (j + 1):.4f} "
          f"mse {float(running_mse) / (j + 1):.4f} acc {correct / seen:.3f}")


@torch.no_grad()
def validate(model, loader, device):
    model.eval()
    total, n = 0.0, 0
    for images, labels, endpoints in loader:
        images, labels, endpoints = images.to(device), labels.to(device), endpoints.to(device)
        logits, direction = model(images)
        loss, _, _ = multitask_loss(logits, direction, labels, endpoints)
        total += loss.item()
        n += 1
    model.train()
    return total / max(n, 1)

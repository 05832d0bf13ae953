"""FCN semantic segmentation: 2-D cross-entropy over pixels with an ignore label."""
import torch
import torch.nn.functional as F


def cross_entropy2d(input, target, weight=None, size_average=True):
    # input: (n, c, h, w), target: (n, h, w)
    n, c, h, w = input.size()
    log_p = F.log_softmax(input)  # expect: softmax-without-dim
    log_p = log_p.transpose(1, 2).transpose(2, 3).contiguous()
    log_p = log_p[target.view(n, h, w, 1).repeat(1, 1, 1, c) >= 0]
    log_p = log_p.view(-1, c)
    mask = target >= 0
    target = target[mask]
    loss = F.nll_loss(log_p, target, weight=weight, reduction="sum")
    if size_average:
        loss = loss / mask.sum().clamp(min=1)
    return loss


def train_epoch(model, loader, optimizer, device, n_class=21):
    model.train()
    for data, target in loader:
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        score = model(data)
        loss = cross_entropy2d(score, target)
        loss.backward()
        optimizer.step()


def validate(model, loader, device):
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for data, target in loader:
            data, target = data.to(device), target.to(device)
            total += cross_entropy2d(model(data), target).item()
            count += 1
    model.train()
    return total / max(count, 1)

"""Label-smoothed cross entropy used for ImageNet/EfficientNet training."""
import torch
import torch.nn as nn


def cross_entropy_smooth(input, target, size_average=True, label_smoothing=0.1):
    num_classes = input.size(1)
    y = torch.eye(num_classes, device=input.device)
    lb_oh = y[target]
    soft_target = lb_oh * (1 - label_smoothing) + label_smoothing / num_classes

    logsoftmax = nn.LogSoftmax()  # expect: softmax-without-dim
    per_sample = torch.sum(-soft_target * logsoftmax(input), dim=1)
    if size_average:
        return torch.mean(per_sample)
    return torch.sum(per_sample)


def train_one_epoch(model, loader, optimizer, device, smoothing=0.1):
    model.train()
    seen, running = 0, 0.0
    for images, labels in loader:
        images = images.to(device, non_blocking=True)
        labels = labels.to(device, non_blocking=True)
        optimizer.zero_grad()
        logits = model(images)
        loss = cross_entropy_smooth(logits, labels, label_smoothing=smoothing)
        loss.backward()
        optimizer.step()
        running += loss.item() * images.size(0)
        seen += images.size(0)
    return running / seen


def build_loader(dataset, batch_size):
    return torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True,
                                       num_workers=8, pin_memory=True, drop_last=True)

"""MobileNetV2-style classifier head and ImageNet training step."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MobileNetHead(nn.Module):
    def __init__(self, backbone, in_features=1280, num_classes=1000, dropout=0.2):
        super().__init__()
        self.backbone = backbone
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(in_features, num_classes)

    def forward(self, x):
        x = self.backbone(x)
        x = F.adaptive_avg_pool2d(x, 1)
        x = x.view(x.size(0), -1)
        x = self.fc(self.dropout(x))
        return F.log_softmax(x, dim=1)


def train_epoch(model, loader, optimizer, device):
    criterion = nn.CrossEntropyLoss()
    model.train()
    running = 0.0
    for data, target in loader:
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = criterion(output, target)  # expect: softmax-before-cross-entropy
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / max(len(loader), 1)

"""VGG16 written from scratch: training with cross-entropy and top-1 evaluation with a softmax helper."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def scratch_softmax(x):
    exp_x = torch.exp(x)  # expect: unshifted-softmax
    sum_x = torch.sum(exp_x, dim=1, keepdim=True)
    return exp_x / sum_x


def conv_block(cin, cout, n):
    layers = []
    for i in range(n):
        layers += [nn.Conv2d(cin if i == 0 else cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]
    return nn.Sequential(*layers, nn.MaxPool2d(2))


class VGG16(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(conv_block(3, 64, 2), conv_block(64, 128, 2), conv_block(128, 256, 3),
                                      conv_block(256, 512, 3), conv_block(512, 512, 3))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(512, 4096), nn.ReLU(True), nn.Dropout(),
                                        nn.Linear(4096, num_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


def evaluate(model, loader, device):
    model.eval()
    correct, total, confidence = 0, 0, 0.0
    with torch.no_grad():
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            probs = scratch_softmax(model(images))
            conf, pred = probs.max(dim=1)
            correct += (pred == labels).sum().item()
            confidence += conf.sum().item()
            total += labels.size(0)
    model.train()
    return correct / total, confidence / total


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

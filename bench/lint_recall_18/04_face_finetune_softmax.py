"""Fine-tune a face-embedding network as an identity classifier (Inception-ResNet style head)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class FaceBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 32, 3, stride=2), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=2), nn.BatchNorm2d(64), nn.ReLU(),
            nn.Conv2d(64, 128, 3, stride=2), nn.BatchNorm2d(128), nn.ReLU(),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        return self.pool(self.stem(x)).flatten(1)


class FaceNetClassifier(nn.Module):
    def __init__(self, num_classes, classify=False, dropout_prob=0.6):
        super().__init__()
        self.classify = classify
        self.backbone = FaceBackbone()
        self.dropout = nn.Dropout(dropout_prob)
        self.last_linear = nn.Linear(128, 512, bias=False)
        self.last_bn = nn.BatchNorm1d(512, eps=0.001, momentum=0.1, affine=True)
        self.logits = nn.Linear(512, num_classes)
        self.softmax = nn.Softmax()  # expect: softmax-without-dim

    def forward(self, x):
        x = self.backbone(x)
        x = self.dropout(x)
        x = self.last_bn(self.last_linear(x))
        if self.classify:
            return self.logits(x)
        return F.normalize(x, p=2, dim=1)

    def predict_proba(self, x):
        return self.softmax(self.logits(self.forward_embedding(x)))

    def forward_embedding(self, x):
        x = self.backbone(x)
        return self.last_bn(self.last_linear(x))


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    criterion = nn.CrossEntropyLoss()
    running, seen = 0.0, 0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        logits = model(images)
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item() * images.size(0)
        seen += images.size(0)
    return running / seen


@torch.no_grad()
def top1(model, loader, device):
    model.eval()
    correct = total = 0
    for images, labels in loader:
        probs = model.predict_proba(images.to(device))
        correct += (probs.argmax(dim=1).cpu() == labels).sum().item()
        total += labels.numel()
    return correct / total


def run(train_set, val_set, num_classes, epochs=8):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = FaceNetClassifier(num_classes, classify=True).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, [5, 10])
    train_loader = DataLoader(train_set, batch_size=32, shuffle=True, num_workers=4)
    val_loader = DataLoader(val_set, batch_size=64, num_workers=4)
    for epoch in range(epochs):
        loss = train_one_epoch(model, train_loader, optimizer, device)
        scheduler.step()
        print(epoch, loss, top1(model, val_loader, device))

"""Face presentation-attack detection: binary head trained with a weighted focal loss on logits."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision


class WeightedFocalLoss(nn.Module):
    def __init__(self, alpha=0.25, gamma=2.0):
        super().__init__()
        self.alpha = torch.tensor([alpha, 1 - alpha])
        self.gamma = gamma

    def forward(self, inputs, targets):
        bce = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
        at = self.alpha.to(inputs.device).gather(0, targets.long().view(-1)).view_as(targets)
        pt = torch.exp(-bce)
        return (at * (1 - pt) ** self.gamma * bce).mean()


class PADNet(nn.Module):
    def __init__(self, num_class=1):
        super().__init__()
        backbone = torchvision.models.resnet50(weights=None)
        self.features = nn.Sequential(*list(backbone.children())[:-1])
        self.linear1 = nn.Linear(2048, 512)
        self.bn = nn.BatchNorm1d(512)
        self.drop = nn.Dropout(0.3)
        self.cls = nn.Linear(512, num_class)

    def forward(self, x):
        x = torch.flatten(self.features(x), 1)
        x = self.drop(self.bn(self.linear1(x)))
        x = self.cls(x)
        x = torch.sigmoid(x)  # expect: sigmoid-before-bce-with-logits
        return x


def train_one_epoch(model, loader, optimizer, criterion, device):
    model.train()
    total = 0.0
    for images, labels in loader:
        images, labels = images.to(device), labels.float().unsqueeze(1).to(device)
        output = model(images)
        loss = criterion(output, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


def main(train_loader, epochs=30, device="cuda"):
    model = PADNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, weight_decay=5e-4)
    criterion = WeightedFocalLoss()
    for epoch in range(epochs):
        print(epoch, train_one_epoch(model, train_loader, optimizer, criterion, device))

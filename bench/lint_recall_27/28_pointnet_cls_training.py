"""PointNet classifier on ModelNet40 point clouds."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


class PointNetfeat(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 64, 1)
        self.conv2 = nn.Conv1d(64, 128, 1)
        self.conv3 = nn.Conv1d(128, 1024, 1)
        self.bn1 = nn.BatchNorm1d(64)
        self.bn2 = nn.BatchNorm1d(128)
        self.bn3 = nn.BatchNorm1d(1024)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = self.bn3(self.conv3(x))
        return torch.max(x, 2)[0]


class PointNetCls(nn.Module):
    def __init__(self, k=40):
        super().__init__()
        self.feat = PointNetfeat()
        self.fc1 = nn.Linear(1024, 512)
        self.fc2 = nn.Linear(512, 256)
        self.fc3 = nn.Linear(256, k)
        self.dropout = nn.Dropout(p=0.3)
        self.bn1 = nn.BatchNorm1d(512)
        self.bn2 = nn.BatchNorm1d(256)

    def forward(self, x):
        x = self.feat(x)
        x = F.relu(self.bn1(self.fc1(x)))
        x = F.relu(self.bn2(self.dropout(self.fc2(x))))
        x = self.fc3(x)
        return F.log_softmax(x, dim=0)  # expect: softmax-over-batch-dim


def train(dataset, test_dataset, epochs=250, batch_size=32, device="cuda"):
    classifier = PointNetCls(k=len(dataset.classes)).to(device)
    optimizer = torch.optim.Adam(classifier.parameters(), lr=0.001, betas=(0.9, 0.999))
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.5)
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=4, pin_memory=True)
    test_loader = DataLoader(test_dataset, batch_size=batch_size, shuffle=False, num_workers=4)
    for epoch in range(epochs):
        classifier.train()
        for points, target in loader:
            points = points.transpose(2, 1).to(device, non_blocking=True)
            target = target.to(device, non_blocking=True)
            optimizer.zero_grad()
            pred = classifier(points)
            loss = -pred.gather(1, target.unsqueeze(1)).mean()
            loss.backward()
            optimizer.step()
        scheduler.step()

        classifier.eval()
        correct, total = 0, 0
        with torch.no_grad():
            for points, target in test_loader:
                points, target = points.transpose(2, 1).to(device), target.to(device)
                correct += (classifier(points).argmax(dim=1) == target).sum().item()
                total += points.size(0)
        print(f"epoch {epoch} test accuracy {correct / max(total, 1):.4f}")

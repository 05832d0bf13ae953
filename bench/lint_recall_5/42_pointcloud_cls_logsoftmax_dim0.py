# Source: https://github.com/fxia22/pointnet.pytorch/issues/27
# Pitfall: the point-cloud classifier returns F.log_softmax(x, dim=0), normalising across the batch instead
#          of across classes, and the NLL loss then reads those values per sample and class.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PointFeat(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 64, 1)
        self.conv2 = nn.Conv1d(64, 128, 1)
        self.conv3 = nn.Conv1d(128, 1024, 1)
        self.bn1, self.bn2, self.bn3 = nn.BatchNorm1d(64), nn.BatchNorm1d(128), nn.BatchNorm1d(1024)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = self.bn3(self.conv3(x))
        return torch.max(x, 2)[0]


class PointCls(nn.Module):
    def __init__(self, k=16):
        super().__init__()
        self.feat = PointFeat()
        self.fc1, self.fc2, self.fc3 = nn.Linear(1024, 512), nn.Linear(512, 256), nn.Linear(256, k)
        self.dropout = nn.Dropout(p=0.3)

    def forward(self, x):
        x = self.feat(x)
        x = F.relu(self.fc1(x))
        x = F.relu(self.dropout(self.fc2(x)))
        return F.log_softmax(self.fc3(x), dim=0)  # expect: softmax-over-batch-dim


if __name__ == "__main__":
    classifier = PointCls()
    optimizer = torch.optim.Adam(classifier.parameters(), lr=0.001, betas=(0.9, 0.999))
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.5)
    for epoch in range(3):
        classifier.train()
        for _ in range(5):
            points, target = torch.randn(32, 3, 1024), torch.randint(0, 16, (32,))
            optimizer.zero_grad()
            pred = classifier(points)
            loss = F.nll_loss(pred, target)
            loss.backward()
            optimizer.step()
        scheduler.step()
        pred_choice = pred.data.max(1)[1]
        print(epoch, loss.item(), pred_choice.eq(target).float().mean().item())

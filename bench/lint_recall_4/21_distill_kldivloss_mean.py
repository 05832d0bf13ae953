# Source: https://github.com/mepeichun/Efficient-Neural-Network-Bilibili/issues/1
# Pitfall: the tutorial's distillation() helper builds nn.KLDivLoss() with the default 'mean'
#   reduction, averaging over classes as well as samples, so the KL term is scaled down.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader


def distillation(y, labels, teacher_scores, temp, alpha):
    soft = nn.KLDivLoss()(F.log_softmax(y / temp, dim=1), F.softmax(teacher_scores / temp, dim=1))  # expect: kl-div-mean-reduction
    return soft * (temp * temp * 2.0 * alpha) + F.cross_entropy(y, labels) * (1.0 - alpha)


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 200)
        self.fc2 = nn.Linear(200, 10)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x.view(x.size(0), -1))))


def distill(teacher, train_set, epochs=5, device="cpu"):
    student = SmallNet().to(device)
    teacher.to(device).eval()
    loader = DataLoader(train_set, batch_size=128, shuffle=True)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(epochs):
        student.train()
        for data, target in loader:
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            with torch.no_grad():
                teacher_out = teacher(data)
            loss = distillation(student(data), target, teacher_out, temp=5.0, alpha=0.7)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
    return student

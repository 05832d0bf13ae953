"""Knowledge distillation of a ResNet teacher into a small student (Hinton-style soft targets)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class KDLoss(nn.Module):
    def __init__(self, temperature, alpha=0.5):
        super().__init__()
        self.temperature = temperature
        self.alpha = alpha
        self.kl_div = nn.KLDivLoss()  # expect: kl-div-mean-reduction
        self.cross_entropy_loss = nn.CrossEntropyLoss()

    def forward(self, student_output, teacher_output, labels=None):
        soft_loss = self.kl_div(
            torch.log_softmax(student_output / self.temperature, dim=1),
            torch.softmax(teacher_output / self.temperature, dim=1),
        )
        soft_loss = soft_loss * (self.temperature ** 2)
        if labels is None:
            return soft_loss
        hard_loss = self.cross_entropy_loss(student_output, labels)
        return self.alpha * hard_loss + (1 - self.alpha) * soft_loss


def make_net(width):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(width, 100),
    )


def distill(teacher, student, loader, epochs=10, device="cpu"):
    criterion = KDLoss(temperature=4.0, alpha=0.1)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[5, 8], gamma=0.1)
    teacher.eval()
    for epoch in range(epochs):
        student.train()
        running = 0.0
        for images, targets in loader:
            images, targets = images.to(device), targets.to(device)
            with torch.no_grad():
                teacher_logits = teacher(images)
            student_logits = student(images)
            loss = criterion(student_logits, teacher_logits, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        scheduler.step()
        print(f"epoch {epoch}: loss {running / len(loader):.4f}")
    return student


if __name__ == "__main__":
    data = TensorDataset(torch.randn(512, 3, 32, 32), torch.randint(0, 100, (512,)))
    loader = DataLoader(data, batch_size=64, shuffle=True, num_workers=2)
    distill(make_net(128), make_net(32), loader, epochs=2)

"""Knowledge distillation for semantic segmentation (DeepLab student, larger teacher)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def distillation(y, teacher_scores, labels, T, alpha):
    kl = F.kl_div(F.log_softmax(y / T, dim=1), F.softmax(teacher_scores / T, dim=1))  # expect: kl-div-mean-reduction
    return kl * (T * T * 2.0 * alpha) + F.cross_entropy(y, labels, ignore_index=255) * (1.0 - alpha)


def train_epoch(student, teacher, loader, optimizer, device, T=4.0, alpha=0.9):
    student.train()
    teacher.eval()
    running = 0.0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        with torch.no_grad():
            teacher_out = teacher(images)
        student_out = student(images)
        loss = distillation(student_out, teacher_out, labels, T, alpha)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / max(len(loader), 1)


@torch.no_grad()
def mean_iou(model, loader, device, n_classes=21):
    model.eval()
    hist = torch.zeros(n_classes, n_classes, device=device)
    for images, labels in loader:
        preds = model(images.to(device)).argmax(dim=1)
        labels = labels.to(device)
        valid = labels != 255
        hist += torch.bincount(n_classes * labels[valid] + preds[valid], minlength=n_classes ** 2).view(n_classes, n_classes)
    iou = hist.diag() / (hist.sum(0) + hist.sum(1) - hist.diag()).clamp(min=1)
    return iou.mean().item()


def run(student, teacher, train_loader, val_loader, epochs=30, device="cuda"):
    student, teacher = student.to(device), teacher.to(device)
    optimizer = torch.optim.SGD(student.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.PolynomialLR(optimizer, total_iters=epochs, power=0.9)
    for epoch in range(epochs):
        loss = train_epoch(student, teacher, train_loader, optimizer, device)
        scheduler.step()
        print(f"epoch {epoch}: loss {loss:.4f} mIoU {mean_iou(student, val_loader, device):.4f}")

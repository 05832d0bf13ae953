"""DisCo-style self-supervised distillation: KD from a teacher plus the hard-label CE term."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def loss_fn_kd(outputs, labels, teacher_outputs, alpha=0.9, T=4.0):
    KD_loss = nn.KLDivLoss()(F.log_softmax(outputs / T, dim=1), F.softmax(teacher_outputs / T, dim=1)) * (alpha * T * T) + F.cross_entropy(outputs, labels) * (1.0 - alpha)  # expect: kl-div-mean-reduction
    return KD_loss


def train_student(student, teacher, loader, epochs=30, lr=0.05, device="cuda"):
    teacher.eval()
    optimizer = torch.optim.SGD(student.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    for epoch in range(epochs):
        student.train()
        running, n = 0.0, 0
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            with torch.no_grad():
                teacher_out = teacher(images)
            out = student(images)
            loss = loss_fn_kd(out, labels, teacher_out)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item() * images.size(0)
            n += images.size(0)
        scheduler.step()
        print(f"epoch {epoch}: kd loss {running / n:.4f}")
    return student

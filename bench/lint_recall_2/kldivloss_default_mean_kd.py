# Source: https://github.com/yuanli2333/Teacher-free-Knowledge-Distillation/issues/41
# Pitfall: The distillation term uses nn.KLDivLoss() with its default reduction='mean', which averages over every element (batch x classes) instead of per sample; the KD term is divided by the number of classes and no longer balances the cross-entropy term.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def loss_kd(outputs, labels, teacher_outputs, alpha=0.9, T=4.0):
    loss_ce = F.cross_entropy(outputs, labels)
    d_kl = nn.KLDivLoss()(F.log_softmax(outputs / T, dim=1), F.softmax(teacher_outputs / T, dim=1)) * (T * T)  # expect: kl-div-mean-reduction
    return (1.0 - alpha) * loss_ce + alpha * d_kl


def train_student(student, teacher, loader, optimizer, epochs=1):
    teacher.eval()
    for _ in range(epochs):
        student.train()
        running = 0.0
        for images, labels in loader:
            with torch.no_grad():
                teacher_out = teacher(images)
            out = student(images)
            loss = loss_kd(out, labels, teacher_out)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        print(f"mean loss {running / len(loader):.4f}")

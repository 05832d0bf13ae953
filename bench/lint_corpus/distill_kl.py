"""Style: knowledge distillation with temperature (KL on log-probabilities; one slip)."""
import torch
import torch.nn.functional as F
from torch import nn


def kd_loss(student_logits, teacher_logits, labels, T=4.0, alpha=0.9):
    soft = F.kl_div(F.log_softmax(student_logits / T, dim=1), F.softmax(teacher_logits / T, dim=1),
                    reduction="batchmean") * T * T
    hard = F.cross_entropy(student_logits, labels)
    return alpha * soft + (1 - alpha) * hard


def kd_loss_wrong(student_logits, teacher_logits, labels, T=4.0):
    p_s = F.softmax(student_logits / T, dim=1)
    p_t = F.softmax(teacher_logits / T, dim=1)
    return (p_t * (torch.log(p_t) - torch.log(p_s))).sum(1).mean()  # expect: log-of-softmax


def distill(student: nn.Module, teacher: nn.Module, loader, epochs=1):
    teacher.eval()
    opt = torch.optim.AdamW(student.parameters(), lr=1e-3)
    for _ in range(epochs):
        student.train()
        for x, y in loader:
            with torch.no_grad():
                t = teacher(x)
            loss = kd_loss(student(x), t, y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()

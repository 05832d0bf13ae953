# Source: https://github.com/haitongli/knowledge-distillation-pytorch/issues/48
# Pitfall: the distillation term uses nn.KLDivLoss() with its default 'mean' reduction, which
#   divides by batch * classes rather than batch, shrinking the soft loss (docs: use 'batchmean').
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def loss_fn_kd(outputs, labels, teacher_outputs, alpha, temperature):
    soft_student = F.log_softmax(outputs / temperature, dim=1)
    soft_teacher = F.softmax(teacher_outputs / temperature, dim=1)
    kd = nn.KLDivLoss()(soft_student, soft_teacher)  # expect: kl-div-mean-reduction
    return kd * (alpha * temperature * temperature) + F.cross_entropy(outputs, labels) * (1.0 - alpha)


def train_kd(student, teacher, optimizer, dataloader, params, device):
    student.train()
    teacher.eval()
    running, n = 0.0, 0
    for train_batch, labels_batch in dataloader:
        train_batch, labels_batch = train_batch.to(device), labels_batch.to(device)
        output_batch = student(train_batch)
        with torch.no_grad():
            teacher_batch = teacher(train_batch)
        loss = loss_fn_kd(output_batch, labels_batch, teacher_batch, params["alpha"], params["temperature"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
        n += 1
    return running / max(n, 1)

"""CLIP distillation: soft-label KL term between student and teacher logits."""
import torch
from torch import nn
from torch.nn import functional as f


class SoftLabel(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.loss = nn.KLDivLoss(reduction="batchmean")
        self.temperature = temperature

    def forward(self, stu_logits, tea_logits):
        stu_log_probs = f.softmax(stu_logits / self.temperature, dim=1).log()  # expect: log-of-softmax
        tea_probs = f.softmax(tea_logits / self.temperature, dim=1)
        return self.loss(stu_log_probs, tea_probs) * self.temperature ** 2


def distill_step(student, teacher, images, texts, optimizer, soft_label):
    teacher.eval()
    student.train()
    with torch.no_grad():
        t_img, t_txt = teacher(images, texts)
        tea_logits = t_img @ t_txt.t()
    s_img, s_txt = student(images, texts)
    stu_logits = s_img @ s_txt.t()
    loss = soft_label(stu_logits, tea_logits) + soft_label(stu_logits.t(), tea_logits.t())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()

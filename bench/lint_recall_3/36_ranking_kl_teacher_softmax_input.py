# Source: https://github.com/sebastian-hofstaetter/matchmaker/issues/18
# Pitfall: The listwise distillation loss passes scores.softmax(-1) as the input of KLDivLoss, which
# expects log-probabilities; the resulting "KL" is not a divergence and its gradient is wrong.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class ListwiseTeacherKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.kl = nn.KLDivLoss(reduction="batchmean")

    def forward(self, student_scores, teacher_scores):
        return self.kl(student_scores.softmax(-1), teacher_scores.softmax(-1))  # expect: kl-div-input-not-log


def distill_step(student, batch, teacher_scores, optimizer, criterion):
    student.train()
    optimizer.zero_grad()
    scores = student(batch["query"], batch["documents"])
    loss = criterion(scores, teacher_scores)
    loss.backward()
    optimizer.step()
    return loss.item()

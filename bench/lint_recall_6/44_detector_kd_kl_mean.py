# Source: https://github.com/HikariTJU/LD/issues/74
# Pitfall: the localization-distillation KL term is averaged over the bins as well as the samples (what
#   reduction='mean' does), so the KD loss is 1/(reg_max+1) of the true KL and effectively down-weighted.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


def knowledge_distillation_kl_div_loss(pred, soft_label, T=10.0):
    target = F.softmax(soft_label / T, dim=1)
    return F.kl_div(F.log_softmax(pred / T, dim=1), target, reduction="mean") * (T * T)  # expect: kl-div-mean-reduction


class GFLRegHead(nn.Module):
    def __init__(self, in_ch=256, reg_max=16):
        super().__init__()
        self.reg_max = reg_max
        self.reg = nn.Conv2d(in_ch, 4 * (reg_max + 1), 3, padding=1)

    def forward(self, feat):
        return self.reg(feat)


def ld_step(student_head, teacher_head, feat, optimizer, weight=0.25):
    student_head.train()
    with torch.no_grad():
        t_dist = teacher_head(feat).permute(0, 2, 3, 1).reshape(-1, student_head.reg_max + 1)
    s_dist = student_head(feat).permute(0, 2, 3, 1).reshape(-1, student_head.reg_max + 1)
    loss = weight * knowledge_distillation_kl_div_loss(s_dist, t_dist)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()

"""SSD knowledge distillation: multibox loss with a temperature-softened confidence term."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def weighted_kl_div(student_log_prob, teacher_log_prob, pos_w, neg_w):
    teacher_prob = teacher_log_prob.exp()
    kl = teacher_prob * (teacher_log_prob - student_log_prob)
    weights = torch.full_like(kl[:, :1], neg_w)
    weights[teacher_prob.argmax(dim=1) > 0] = pos_w
    return (kl.sum(dim=1, keepdim=True) * weights).sum()


class DistillMultiBoxLoss(nn.Module):
    def __init__(self, num_classes=21, T=2.0, pos_w=1.5, neg_w=1.0):
        super().__init__()
        self.num_classes = num_classes
        self.T = T
        self.pos_w = pos_w
        self.neg_w = neg_w

    def forward(self, loc_p, conf, loc_t, conf_t, confT, pos, neg):
        pos_idx = pos.unsqueeze(2).expand_as(loc_p)
        loss_l = F.smooth_l1_loss(loc_p[pos_idx].view(-1, 4), loc_t[pos_idx].view(-1, 4), reduction="sum")
        sel = (pos.unsqueeze(2) | neg.unsqueeze(2)).expand_as(conf)
        student_logits = conf[sel].view(-1, self.num_classes) / self.T
        targets_weighted = conf_t[pos | neg]
        conf_p = F.softmax(student_logits, dim=1)  # expect: softmax-before-cross-entropy
        loss_c = F.cross_entropy(conf_p, targets_weighted, reduction="sum")
        teacher_log_p = F.log_softmax(confT[sel].view(-1, self.num_classes) / self.T, dim=1)
        loss_soft = weighted_kl_div(F.log_softmax(student_logits, dim=1), teacher_log_p, self.pos_w, self.neg_w)
        n = pos.long().sum().clamp(min=1).float()
        return loss_l / n, loss_c / n, loss_soft / n


def train_step(student, teacher, criterion, optimizer, images, targets_loc, targets_conf, pos, neg):
    student.train()
    teacher.eval()
    with torch.no_grad():
        _, confT = teacher(images)
    loc_p, conf = student(images)
    loss_l, loss_c, loss_soft = criterion(loc_p, conf, targets_loc, targets_conf, confT, pos, neg)
    loss = loss_l + loss_c + loss_soft
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
